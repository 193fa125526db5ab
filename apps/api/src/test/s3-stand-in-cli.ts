import { startS3StandIn } from './s3-stand-in.ts';

/**
 * The S3 stand-in as its own process, for benches that must not count its memory as the API's:
 * prints the API's environment for it as one JSON line, then serves until killed.
 */
const standIn = await startS3StandIn({ bucket: 'bench-bucket' });
process.stdout.write(`${JSON.stringify(standIn.env())}\n`);
process.on('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
