import { TransportError, VendorRefused } from './driver';

/** A vendor's endpoint: its base URL is configurable, so tests point it at a local stub. */
export type VendorEndpoint = { baseUrl: string; timeoutMs?: number };

/** Posts to a vendor; a timeout, a connection error or a 5xx is a transport error (retried), a 4xx a refusal. */
export async function postVendor(
  endpoint: VendorEndpoint,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(new URL(path, endpoint.baseUrl), {
      method: 'POST',
      body,
      headers,
      signal: AbortSignal.timeout(endpoint.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new TransportError(`vendor unreachable: ${(error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message}`);
  }
  if (response.status >= 500) throw new TransportError(`vendor answered ${response.status}`);
  if (response.status >= 400) throw new VendorRefused(`vendor answered ${response.status}`);
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    throw new TransportError('vendor answered something that is not JSON');
  }
}
