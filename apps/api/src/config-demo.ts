import { flag } from './config-env.ts';
import { oldRelease } from './demo/demo-fleet-cast.ts';

/**
 * The demo data set and the demo fleet that keeps it alive (demo/demo-fleet.ts, issue 35 item 1).
 */
export const demoEnv = {
  DEMO_DATA: flag,
  // With demo data: the demo's machines keep calling this server (0: off).
  DEMO_FLEET: flag,
};

export type DemoConfig = Readonly<{
  /** The demo data set fills an empty database: on by default for the embedded one only. */
  demoData: boolean;
  /** The built-in demo fleet runs: with demo data only, on unless DEMO_FLEET=0. */
  demoFleet: boolean;
}>;

export function demoConfig(e: {
  DEMO_DATA?: boolean;
  DEMO_FLEET?: boolean;
  DATABASE_URL?: string;
}): DemoConfig {
  const demoData = e.DEMO_DATA ?? !e.DATABASE_URL;
  return { demoData, demoFleet: demoData && (e.DEMO_FLEET ?? true) };
}

/**
 * The lowest supported app version when none is set: with the demo fleet, the release after the
 * demo's old one (its 1.2.0 security fix), so the app-version alarm has something to show.
 */
export const demoMinimumVersion = (demo: DemoConfig, configured: number | undefined) =>
  configured ?? (demo.demoFleet ? oldRelease.code + 10 : undefined);
