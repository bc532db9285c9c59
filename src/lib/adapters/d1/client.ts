/**
 * What the D1 adapter needs of a D1 binding: `prepare` and `batch`, which a `D1Database`
 * (`env.DB`) and a session of its Sessions API (`env.DB.withSession(…)`, for read replicas) both
 * have. kitauth depends on no Cloudflare package: anything of this shape works (miniflare's
 * binding in tests included).
 */
export interface D1Statement {
	bind(...values: unknown[]): D1Statement;
	raw<T = unknown[]>(): Promise<T[]>;
	all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
	run(): Promise<unknown>;
}

export interface D1Binding {
	prepare(query: string): D1Statement;
	batch<T = Record<string, unknown>>(statements: D1Statement[]): Promise<{ results: T[] }[]>;
}
