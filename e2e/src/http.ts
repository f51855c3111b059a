/** Response bodies are checked at run time against the shapes of SPEC.md; statically they are open JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function json(response: Response): Promise<Json> {
  return response.json() as Promise<Json>;
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await json(response) };
}
