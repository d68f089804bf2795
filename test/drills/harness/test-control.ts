/**
 * The app's test-control surface (simulated clock), set at start with LOMO_TEST_CONTROL=on and
 * refused in production. `POST /test-control/clock {"advanceMs": n}` with an operator's token
 * moves the app's clock. Until that surface is in the build the endpoint answers 404: the drill
 * then only records the simulated day offset (the log keeps wall-clock times) and says so.
 */
export interface ClockAdvance {
  advanceMs: number;
  /** True when the app moved its clock; false when the surface is absent (404) and only the offset is recorded. */
  applied: boolean;
  status: number;
}

export async function advanceClock(baseUrl: string, operatorToken: string, advanceMs: number): Promise<ClockAdvance> {
  const response = await fetch(`${baseUrl}/test-control/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({ advanceMs }),
  });
  if (response.status === 404) return { advanceMs, applied: false, status: 404 };
  if (!response.ok)
    throw new Error(`POST /test-control/clock answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  return { advanceMs, applied: true, status: response.status };
}
