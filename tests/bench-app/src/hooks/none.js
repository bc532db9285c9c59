// The baseline: the same app with kitauth's hook removed (no `handle`).
export {};
