// Browser-side helpers for the API's JSON answers: no framework, so plain scripts and islands share them.

/** The API's error envelope. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; issues?: { path: string; message: string }[] };
}

/** POSTs JSON and returns the status with the parsed body (null when the body is not JSON). */
export async function postJson(url: string, body: unknown): Promise<{ status: number; data: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  return { status: res.status, data };
}

/** Field errors of a 400 answer, keyed by field name. */
export function fieldErrors(data: unknown): Record<string, string> {
  const issues = (data as ApiErrorBody | null)?.error?.issues ?? [];
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = String(i.path).split('.')[0] ?? '';
    if (key && !out[key]) out[key] = i.message;
  }
  return out;
}

/** The message of an error envelope, if any. */
export const errorMessage = (data: unknown): string | undefined => (data as ApiErrorBody | null)?.error?.message;

/**
 * Errors carried back by a no-JavaScript post (`?error=<code>&fields=a,b`): the code and
 * each named field marked. Null when the page was not reached that way.
 */
export function redirectErrors(search: string): { code: string; fields: Record<string, string> } | null {
  const params = new URLSearchParams(search);
  const code = params.get('error');
  if (!code) return null;
  const names = (params.get('fields') ?? '').split(',').filter(Boolean);
  return { code, fields: Object.fromEntries(names.map((f) => [f, 'Check this field'])) };
}
