import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-storage-test', JWT_SECRET: 'x'.repeat(32) };

describe('storage and upload settings', () => {
  it('defaults to disk storage and the documented zip limits', () => {
    const config = loadConfig(base);
    expect(config.storage).toEqual({ kind: 'disk' });
    expect([config.apkMaxEntries, config.apkMaxUncompressedBytes]).toEqual([50_000, 2 * 1024 ** 3]);
  });

  it('reads every S3 setting', () => {
    const config = loadConfig({
      ...base,
      STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'apk-releases',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      S3_FORCE_PATH_STYLE: '1',
      APK_MAX_ENTRIES: '1000',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'apk-releases',
      region: 'eu-west-3',
      credentials: {
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
      forcePathStyle: true,
    });
    expect(config.apkMaxEntries).toBe(1000);
    // Keys may be left to the SDK's default chain (an instance role), both at once.
    expect(loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'b-1' }).storage).toMatchObject({
      credentials: undefined,
      forcePathStyle: false,
      region: 'us-east-1',
    });
  });

  it('stops the start with a line naming the bad S3 setting', () => {
    expect(() => loadConfig({ ...base, STORAGE: 's3' })).toThrow('S3_BUCKET is required when STORAGE=s3');
    expect(() => loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together',
    );
    expect(() => loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'Not_A_Bucket' })).toThrow(
      'S3_BUCKET must be a valid bucket name',
    );
    expect(() => loadConfig({ ...base, STORAGE: 'ftp' })).toThrow(/STORAGE/);
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...base, APK_MAX_ENTRIES: '0' })).toThrow(/APK_MAX_ENTRIES/);
  });
});
