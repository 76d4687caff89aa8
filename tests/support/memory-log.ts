import type { Log, LogFields } from "../../app/lib/log.ts";

/** A line the fake logger was given: its level, message and fields (a child's bindings included). */
export interface LoggedLine {
  level: "error" | "warn" | "info" | "debug";
  msg: string;
  fields: LogFields;
}

export interface MemoryLog extends Log {
  /** Every line given to this logger or any of its children, in order. */
  lines: LoggedLine[];
  /** The messages at one level. */
  messages(level: LoggedLine["level"]): string[];
}

/**
 * A logger for unit tests: it keeps its lines in memory instead of writing them, so a test hands
 * it to the code under test (as the server hands pino's) and reads what was logged.
 */
export function memoryLog(bindings: LogFields = {}, lines: LoggedLine[] = []): MemoryLog {
  const at =
    (level: LoggedLine["level"]) =>
    (first: string | LogFields, message?: string): void => {
      if (typeof first === "string") lines.push({ level, msg: first, fields: { ...bindings } });
      else lines.push({ level, msg: message ?? "", fields: { ...bindings, ...first } });
    };
  return {
    lines,
    messages: (level) => lines.filter((line) => line.level === level).map((line) => line.msg),
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    child: (more) => memoryLog({ ...bindings, ...more }, lines),
  };
}
