// The baseline: the same app without auth (no `handle`).
export {};
