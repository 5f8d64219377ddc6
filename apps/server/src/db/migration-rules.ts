import { readFileSync } from 'node:fs';
import path from 'node:path';
import { release } from '../release';
import { migrationsFolder } from './client';

/**
 * Expand, then contract (docs/adr/031-expand-then-contract-migrations.md): a release's migrations may only
 * add to the schema, because the previous release keeps running beside them during a rolling upgrade. A
 * statement that takes something away or changes what the previous release writes — a dropped table,
 * column, index, view, type, sequence, function, constraint, policy or trigger, a rename, a new NOT NULL column without a default, a column made NOT NULL
 * or given another type — is a contract step, and passes only when marked as one, on the line above it:
 *
 *     -- contract: accounts.locked_until (no longer used since 0.2.0)
 *     ALTER TABLE "accounts" DROP COLUMN "locked_until";
 *
 * The version named is the first release that no longer reads or writes what the step removes; the step
 * itself ships in a later release (docs/operations.md, "Upgrading").
 */

/** A contract step's marker: what it removes, and since which release nothing uses it. */
const marker = /^\s*--\s*contract:\s*(\S.*?)\s*\(no longer used since v?(\d+\.\d+\.\d+)\)\s*$/m;

/**
 * Contract steps that shipped before the rule existed, unmarked, each with what happened. The list is
 * history: it does not grow (a new contract step carries its marker), and an entry that no longer
 * matches a statement fails the check too.
 */
export const contractHistory: Readonly<Record<string, string>> = {
  '0007_login_logs_rls_known_devices: drops column accounts.failed_logins':
    'sign-in locks left accounts (ADR 007); dropped in 0.2.0 together with the code that stopped using it, so 0.1.0 instances beside a 0.2.0 schema failed every sign-in (CHANGELOG 0.2.0)',
  '0007_login_logs_rls_known_devices: drops column accounts.locked_until':
    'as accounts.failed_logins: dropped in 0.2.0 with the code that stopped using it (CHANGELOG 0.2.0)',
  '0016_notification_counts: drops index notifications_account_idx':
    'recreated under the same name with other columns in the same migration; queries do not name indexes, so 0.1.0 kept working',
  '0017_order_number_index_with_time: drops index erp_sales_order_no_prefix_idx':
    'recreated under the same name with more columns in the same migration; the index itself came in 0.2.0 (0010)',
};

const ident = String.raw`"?([\w]+)"?`;
const qualified = String.raw`(?:"?\w+"?\.)?"?([\w]+)"?`;
const checks: { pattern: RegExp; says: (m: RegExpMatchArray, table: string | undefined) => string }[] = [
  { pattern: new RegExp(String.raw`\bDROP\s+COLUMN\s+(?:IF\s+EXISTS\s+)?${ident}`, 'gi'), says: (m, t) => `drops column ${t}.${m[1]}` },
  { pattern: new RegExp(String.raw`\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?${qualified}`, 'gi'), says: (m) => `drops table ${m[1]}` },
  {
    pattern: new RegExp(String.raw`\bDROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?${qualified}`, 'gi'),
    says: (m) => `drops index ${m[1]}`,
  },
  {
    pattern: new RegExp(String.raw`\bDROP\s+(MATERIALIZED\s+VIEW|VIEW|TYPE|SEQUENCE|FUNCTION)\s+(?:IF\s+EXISTS\s+)?${qualified}`, 'gi'),
    says: (m) => `drops ${(m[1] ?? '').toLowerCase().replace(/\s+/, ' ')} ${m[2]}`,
  },
  {
    // a unique constraint the previous release's ON CONFLICT names, a policy under forced row-level
    // security, a trigger that keeps a count: each is something the previous release relies on
    pattern: new RegExp(String.raw`\bDROP\s+(CONSTRAINT|POLICY|TRIGGER)\s+(?:IF\s+EXISTS\s+)?${ident}(?:\s+ON\s+${qualified})?`, 'gi'),
    says: (m, t) => `drops ${(m[1] ?? '').toLowerCase()} ${m[3] ?? t}.${m[2]}`,
  },
  {
    pattern: new RegExp(String.raw`\bRENAME\s+(?:COLUMN\s+)?${ident}\s+TO\s+${ident}`, 'gi'),
    says: (m, t) => `renames column ${t}.${m[1]} to ${m[2]}`,
  },
  {
    pattern: new RegExp(
      String.raw`^\s*ALTER\s+(TABLE|INDEX|VIEW|TYPE|SEQUENCE)\s+(?:IF\s+EXISTS\s+)?${qualified}\s+RENAME\s+TO\s+${ident}`,
      'gi',
    ),
    says: (m) => `renames ${(m[1] ?? '').toLowerCase()} ${m[2]} to ${m[3]}`,
  },
  {
    pattern: new RegExp(String.raw`\bALTER\s+COLUMN\s+${ident}\s+SET\s+NOT\s+NULL`, 'gi'),
    says: (m, t) => `makes column ${t}.${m[1]} NOT NULL`,
  },
  {
    pattern: new RegExp(String.raw`\bALTER\s+COLUMN\s+${ident}\s+(?:SET\s+DATA\s+)?TYPE\b`, 'gi'),
    says: (m, t) => `changes the type of column ${t}.${m[1]}`,
  },
];

/** An ADD COLUMN clause, up to the next clause of the same ALTER TABLE or the statement's end. */
const addColumn = new RegExp(
  String.raw`\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?${ident}([\s\S]*?)(?=,\s*(?:ADD|DROP|ALTER)\b|;|$)`,
  'gi',
);

/** What one statement does that the previous release may depend on, in words ("drops column accounts.x"). */
export function contractingChanges(statement: string): string[] {
  const code = statement
    .replace(/--[^\n]*/g, '')
    .replace(/'(?:[^']|'')*'/g, "''")
    .trim();
  if (!code) return [];
  const table = /^\s*ALTER\s+TABLE\s+(?:ONLY\s+)?(?:IF\s+EXISTS\s+)?(?:"?\w+"?\.)?"?(\w+)"?/i.exec(code)?.[1];
  const found: string[] = [];
  for (const check of checks) {
    for (const m of code.matchAll(check.pattern)) {
      found.push(check.says(m, table));
    }
  }
  if (table) {
    for (const m of code.matchAll(addColumn)) {
      const rest = m[2] ?? '';
      if (/\bNOT\s+NULL\b/i.test(rest) && !/\b(DEFAULT|GENERATED)\b/i.test(rest)) {
        found.push(`adds column ${table}.${m[1]} NOT NULL without a default`);
      }
    }
  }
  return found;
}

export type MigrationFinding = { migration: string; change: string; marked?: { what: string; since: string } };

/** Every contracting change in the folder's migrations, in journal order, with its marker if it has one. */
export function migrationFindings(folder = migrationsFolder): MigrationFinding[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const findings: MigrationFinding[] = [];
  for (const { tag } of journal.entries) {
    const text = readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) {
      const mark = marker.exec(statement);
      for (const change of contractingChanges(statement)) {
        findings.push({ migration: tag, change, ...(mark ? { marked: { what: mark[1] as string, since: mark[2] as string } } : {}) });
      }
    }
  }
  return findings;
}

/** Whether release `a` (x.y.z) comes before release `b`; an unreadable `b` (a checkout without a version) accepts any. */
export function olderRelease(a: string, b: string): boolean {
  const parse = (v: string) => /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim())?.slice(1).map(Number);
  const x = parse(a);
  const y = parse(b);
  if (!x) return false;
  if (!y) return true;
  for (let i = 0; i < 3; i++) if ((x[i] as number) !== (y[i] as number)) return (x[i] as number) < (y[i] as number);
  return false;
}

/**
 * The expand-then-contract check: one line for each contracting change that is neither marked as a
 * contract step nor in `contractHistory`, for each marked step whose release is not older than this
 * release (the root package.json's version), and for each history entry that matches nothing. Empty when
 * the migrations keep the rule.
 */
export function migrationRuleViolations(folder = migrationsFolder, history = contractHistory, thisRelease = release): string[] {
  const violations: string[] = [];
  const seen = new Set<string>();
  for (const finding of migrationFindings(folder)) {
    const key = `${finding.migration}: ${finding.change}`;
    seen.add(key);
    if (finding.marked && olderRelease(finding.marked.since, thisRelease)) continue;
    if (finding.marked) {
      // the removal ships a release after the last one that used it, never in that release itself
      violations.push(
        `${key}: marked as no longer used since ${finding.marked.since}, which is not older than this release ${thisRelease}`,
      );
      continue;
    }
    if (key in history) continue;
    violations.push(`${key} (a contract step: mark it "-- contract: <what> (no longer used since <version>)" or split it out)`);
  }
  for (const key of Object.keys(history)) {
    if (!seen.has(key)) violations.push(`${key}: listed in contractHistory but no migration does it`);
  }
  return violations;
}
