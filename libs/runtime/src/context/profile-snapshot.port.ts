/**
 * The person's profile as the stable prefix shows it (article §6.1: "畫像快照"), by version: the
 * memory issue's profile versions supply it. A new version changes the prefix on purpose, and
 * the step records why (ModelStepCommitted.context.prefix.changed).
 */
export interface ProfileView {
  version: number;
  text: string;
}

export const PROFILE_SNAPSHOT = Symbol('PROFILE_SNAPSHOT');

export interface ProfileSnapshot {
  /** The current profile of the person a task works for; null when there is none. */
  current(workspaceId: string, userId: string | null): Promise<ProfileView | null>;
}

/**
 * A fixed profile until memory exists: every task sees version 1 of the same short text, so the
 * prefix is stable. Tests swap in their own to change the version.
 */
export class FixedProfileSnapshot implements ProfileSnapshot {
  constructor(private readonly view: ProfileView | null = FIXED_PROFILE) {}

  current(): Promise<ProfileView | null> {
    return Promise.resolve(this.view);
  }
}

export const FIXED_PROFILE: ProfileView = {
  version: 1,
  text: 'No profile is kept yet: rely on what the person says in this task.',
};
