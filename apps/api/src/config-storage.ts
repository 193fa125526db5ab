import { z } from 'zod';
import { ConfigError, flag } from './config-env.ts';

/** The environment variables of file storage (STORAGE and the S3 bucket). */
export const storageEnv = {
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,
};
type StorageEnv = z.infer<z.ZodObject<typeof storageEnv>>;

export type S3Config = {
  /** Unset → AWS itself; set for MinIO, Ceph, R2 and other S3-compatible stores. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither: neither → the AWS SDK's default chain (instance role, env, profile). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted stores want it). */
  forcePathStyle: boolean;
};

export type StorageConfig = { kind: 'disk' } | ({ kind: 's3' } & S3Config);

/** Where uploaded files live; S3 settings are checked together, as a whole. */
export function storageConfig(e: StorageEnv): StorageConfig {
  if (e.STORAGE === 'disk') return { kind: 'disk' };
  if (!e.S3_BUCKET) throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE=s3');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (set both, or neither for the default AWS credential chain)',
    );
  }
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID
      ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
      : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
  };
}
