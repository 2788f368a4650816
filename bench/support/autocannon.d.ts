// Minimal typing of the part of autocannon the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Histogram { average: number; p50: number; p90: number; p99: number; max: number }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  interface Options {
    url: string;
    method?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    amount?: number;
    /** A sequence of requests each connection sends in turn, from the first again after the last. */
    requests?: Array<{ method?: string; body?: string | Buffer; headers?: Record<string, string> }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
