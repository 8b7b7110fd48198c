// The published demo key pair of venue-notes.md §2 (public documentation values, not a real account).
export const DEMO_API_KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
export const DEMO_SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
