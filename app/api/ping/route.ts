// A trivial Next route handler: the benchmark's floor for any REST route (issue 2 benchmark).
export function GET(): Response {
  return Response.json({ pong: true });
}
