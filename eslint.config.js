// Lint rules: typescript-eslint's recommended set plus the project's money and time rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Money is exact: parse venue decimals with core/fixed or decimal.js.' }],
      'no-restricted-properties': ['error', { object: 'Number', property: 'parseFloat', message: 'Money is exact: parse venue decimals with core/fixed or decimal.js.' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/**', 'src/app/**', 'src/cli/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Take time from the injected Clock.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Take time from the injected Clock.' },
        { selector: "CallExpression[callee.name=/^(setTimeout|setInterval)$/]", message: 'Schedule on the injected Clock.' },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
