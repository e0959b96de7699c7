import { DomainError } from '@code-cluster/mcp-kit';

/**
 * Labs unlock in catalogue order (the lab suite lists them in the order students meet them): a lab is
 * open to a student once every lab before it is passed. The first lab is always open.
 */
export function openLabs(catalogue: readonly string[], passed: ReadonlySet<string>): string[] {
  const open: string[] = [];
  for (const lab of catalogue) {
    open.push(lab);
    if (!passed.has(lab)) break;
  }
  return open;
}

/** The labs before `lab` that the student has not passed yet; none for a lab the catalogue lacks. */
export function missingBefore(
  catalogue: readonly string[],
  passed: ReadonlySet<string>,
  lab: string,
): string[] {
  const index = catalogue.indexOf(lab);
  return index === -1 ? [] : catalogue.slice(0, index).filter((id) => !passed.has(id));
}

export function lockedLabError(lab: string, student: string, missing: readonly string[]): DomainError {
  const first = missing[0]!;
  return new DomainError(
    `El laboratorio '${lab}' aún está bloqueado para ${student}: antes hay que aprobar ${missing
      .map((id) => `'${id}'`)
      .join(', ')}. Empieza por iniciar_laboratorio {laboratorio: "${first}", estudiante: "${student}"}, ` +
      `envía la entrega con enviar_entrega y, cuando resultado_entrega diga APROBADA, '${lab}' se abrirá.`,
  );
}

/**
 * Who one MCP session is working for, and what that student has unlocked. The session is the student it
 * last named in `iniciar_laboratorio` (before that: nobody, so only the first lab is open); what the
 * student passed comes from the lab suite's store, so a new session, or another server process, sees the
 * same progress. When the open labs change, `onChange` runs (the kit sends resources/list_changed).
 */
export class SessionProgress {
  private current: string | undefined;
  private passed = new Set<string>();

  constructor(private readonly onChange: () => void) {}

  get student(): string | undefined {
    return this.current;
  }

  open(catalogue: readonly string[]): string[] {
    return openLabs(catalogue, this.passed);
  }

  /** The session now works for `student`, who has passed `passed` (as the store says). */
  follow(student: string, passed: readonly string[], catalogue: readonly string[]): void {
    this.update(catalogue, () => {
      this.current = student;
      this.passed = new Set(passed);
    });
  }

  /**
   * A grading this session watched ended passed: counts when it is the session's own student's. Returns
   * the labs it opened.
   */
  recordPass(student: string, lab: string, catalogue: readonly string[]): string[] {
    if (student !== this.current || this.passed.has(lab)) return [];
    return this.update(catalogue, () => this.passed.add(lab));
  }

  private update(catalogue: readonly string[], change: () => void): string[] {
    const before = this.open(catalogue);
    change();
    const after = this.open(catalogue);
    if (after.join(',') !== before.join(',')) this.onChange();
    return after.filter((lab) => !before.includes(lab));
  }
}
