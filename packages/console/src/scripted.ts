import type { ConsoleOptions } from './args.js';
import { Checklist } from './checks.js';
import type { ConsoleIo } from './io.js';
import { Printer } from './render.js';
import { DEFAULT_SCENARIO, type Scenario, type ScenarioContext } from './scenarios/index.js';
import { Session } from './session.js';
import { colorEnabled, createStyle } from './style.js';
import { resolveTarget } from './targets.js';

/** Runs a scripted scenario against the target server; resolves with the exit code (0: all expectations held). */
export async function runScripted(
  options: ConsoleOptions,
  io: ConsoleIo,
  scenario: Scenario = DEFAULT_SCENARIO,
): Promise<number> {
  const target = resolveTarget(options.target);
  const printer = new Printer({
    out: io.stdout,
    style: createStyle(!options.json && colorEnabled(io.stdout, io.env)),
    json: options.json,
  });
  const checks = new Checklist(printer);
  const sessions: Session[] = [];
  const context: ScenarioContext = {
    printer,
    protocolVersion: options.protocolVersion,
    errors: options.errors,
    openSession(labelSuffix = '') {
      const session = Session.start({ ...target, label: `${target.label}${labelSuffix}` }, printer, {
        showStderr: options.showStderr,
      });
      sessions.push(session);
      return session;
    },
    expect: (name, ok, detail) => checks.expect(name, ok, detail),
  };

  printer.note(`${scenario.title}, against ${[target.command, ...target.args].join(' ')}`);
  try {
    await scenario.run(context);
  } catch (error) {
    context.expect('the scenario runs to the end', false, (error as Error).message);
  } finally {
    await Promise.all(sessions.filter((s) => s.ended === undefined).map((s) => s.close()));
  }

  return checks.finish(io.stderr);
}
