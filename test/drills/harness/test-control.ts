/**
 * The app's test-control surface (simulated clock, libs/platform/src/test-control), on in every
 * drill (DrillApp sets LOMO_TEST_CONTROL=on; the app refuses it in production).
 * `POST /test-control/clock {"advanceMs": n}` with an operator's token moves the app's clock, so
 * "three days later" is three days later in the log too. A 404 means test control is off: the
 * drill fails there rather than play days that never pass.
 */
export interface ClockAdvance {
  advanceMs: number;
  /** The app's simulated time after the move (ISO). */
  now: string;
  status: number;
}

export async function advanceClock(baseUrl: string, operatorToken: string, advanceMs: number): Promise<ClockAdvance> {
  const response = await fetch(`${baseUrl}/test-control/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({ advanceMs }),
  });
  if (response.status === 404)
    throw new Error('POST /test-control/clock answered 404: the app runs with test control off (LOMO_TEST_CONTROL=on)');
  if (!response.ok)
    throw new Error(`POST /test-control/clock answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  const { now } = (await response.json()) as { now: string };
  return { advanceMs, now, status: response.status };
}

/**
 * `POST /test-control/faults` with an operator's token: switches (or arms) the named faults of
 * the running app and answers the faults as the app now has them.
 */
export async function setFaults(
  baseUrl: string,
  operatorToken: string,
  faults: Record<string, boolean>,
): Promise<Record<string, boolean>> {
  const response = await fetch(`${baseUrl}/test-control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify(faults),
  });
  if (!response.ok)
    throw new Error(`POST /test-control/faults answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  return ((await response.json()) as { faults: Record<string, boolean> }).faults;
}
