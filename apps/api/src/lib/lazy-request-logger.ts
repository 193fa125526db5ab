import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type LevelAware = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type Write = (...args: unknown[]) => void;

/**
 * Stands in for a request's child logger until a line is really written. Methods live on the
 * prototype, so a request pays for one small object, not a closure a level.
 */
class LazyChild {
  #child: LevelAware | undefined;
  constructor(
    private readonly parent: LevelAware & { isLevelEnabled(level: string): boolean },
    private readonly ownBindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}
  #real(): LevelAware {
    return (this.#child ??= this.parent.child(this.ownBindings, this.opts));
  }
  #write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', args: unknown[]) {
    const target = this.#child ?? (this.parent.isLevelEnabled(level) ? this.#real() : undefined);
    if (target) (target[level] as Write)(...args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  silent() {}
  child(bindings: Bindings, opts?: ChildLoggerOptions) {
    return this.#real().child(bindings, opts);
  }
  isLevelEnabled(level: string) {
    return (this.#child ?? this.parent).isLevelEnabled!(level);
  }
  bindings(): Bindings {
    return (this.#real() as unknown as { bindings(): Bindings }).bindings();
  }
  get level() {
    return (this.#child ?? this.parent).level;
  }
  set level(next: string) {
    this.#real().level = next;
  }
}

/**
 * Fastify gives every request a child of the server's logger. With redaction configured, pino
 * serializes the child's bindings through the redactor at creation: 4 % of a heartbeat's time under
 * load, for a logger that logs nothing at the usual level (warn). This child is made on the first
 * line that is really written; lines below the level cost a level check (decision 040).
 */
export function lazyRequestLogger(
  this: unknown,
  parent: FastifyBaseLogger,
  bindings: Bindings,
  opts: ChildLoggerOptions,
): FastifyBaseLogger {
  const aware = parent as LevelAware;
  // A route with a level of its own, or a logger that cannot tell its level: the child at once.
  if (opts.level !== undefined || typeof aware.isLevelEnabled !== 'function')
    return parent.child(bindings, opts);
  return new LazyChild(
    aware as LevelAware & { isLevelEnabled(level: string): boolean },
    bindings,
    opts,
  ) as unknown as FastifyBaseLogger;
}
