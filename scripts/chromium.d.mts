import type { LaunchOptions, Page } from '@playwright/test';

export declare const chromiumLaunchOptions: LaunchOptions & { executablePath: string; args: string[] };

export declare function animationsSettled(page: Page): Promise<void>;

export declare function storeConsoleSession(
  page: Page,
  baseUrl: string,
  session: { accessToken: string; admin: unknown },
  timeZone: string,
): Promise<void>;
