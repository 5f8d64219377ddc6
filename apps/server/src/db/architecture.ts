type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * The tenancy rules of the schema, read from the catalog: every table in `public` with a `tenant_id`
 * column has row-level security enabled and forced, a policy on `app.tenant_id`, and every primary
 * key, unique constraint and foreign key between tenant tables includes `tenant_id`.
 * Returns one line per violation; an empty list means the schema is sound.
 */
export async function tenancyViolations(query: Query, schema = 'public'): Promise<string[]> {
  const problems: string[] = [];
  const tables = await query<{ table: string; rls: boolean; forced: boolean; policies: string | null }>(
    `select c.relname as "table", c.relrowsecurity as rls, c.relforcerowsecurity as forced,
            (select string_agg(coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' ' ||
                               coalesce(pg_get_expr(p.polwithcheck, p.polrelid), ''), ' | ')
               from pg_policy p where p.polrelid = c.oid) as policies
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p')
        and exists (select 1 from pg_attribute a
                     where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
      order by c.relname`,
    [schema],
  );
  const tenantTables = new Set(tables.map((t) => t.table));
  for (const t of tables) {
    if (!t.rls) problems.push(`${t.table}: row-level security is not enabled`);
    if (!t.forced) problems.push(`${t.table}: row-level security is not forced`);
    const policies = t.policies ?? '';
    if (!policies.includes('app.tenant_id')) problems.push(`${t.table}: no policy checks app.tenant_id`);
  }
  const constraints = await query<{
    table: string;
    name: string;
    type: string;
    columns: string[];
    target: string | null;
    targetColumns: string[] | null;
  }>(
    `select c.relname as "table", con.conname as name, con.contype as type,
            array(select a.attname::text from unnest(con.conkey) k join pg_attribute a
                    on a.attrelid = con.conrelid and a.attnum = k) as columns,
            t.relname as target,
            case when con.confrelid = 0 then null else
              array(select a.attname::text from unnest(con.confkey) k join pg_attribute a
                      on a.attrelid = con.confrelid and a.attnum = k) end as "targetColumns"
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_class t on t.oid = con.confrelid
      where n.nspname = $1 and con.contype in ('p', 'u', 'f')
      order by c.relname, con.conname`,
    [schema],
  );
  for (const con of constraints) {
    if (!tenantTables.has(con.table)) continue;
    const kind = con.type === 'p' ? 'primary key' : con.type === 'u' ? 'unique constraint' : 'foreign key';
    if (con.type === 'f') {
      // a foreign key to a global table (tenants, accounts…) is fine; between tenant tables it must carry tenant_id
      if (!con.target || !tenantTables.has(con.target)) continue;
      if (!con.columns.includes('tenant_id') || !(con.targetColumns ?? []).includes('tenant_id')) {
        problems.push(`${con.table}: ${kind} ${con.name} to ${con.target} omits tenant_id`);
      }
    } else if (!con.columns.includes('tenant_id')) {
      problems.push(`${con.table}: ${kind} ${con.name} omits tenant_id`);
    }
  }
  // a unique index made without a constraint is the same hazard
  const indexes = await query<{ table: string; name: string; columns: string[] }>(
    `select c.relname as "table", i.relname as name,
            array(select a.attname::text from unnest(x.indkey) k join pg_attribute a
                    on a.attrelid = x.indrelid and a.attnum = k) as columns
       from pg_index x
       join pg_class c on c.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and x.indisunique
        and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid)`,
    [schema],
  );
  for (const index of indexes) {
    if (tenantTables.has(index.table) && !index.columns.includes('tenant_id')) {
      problems.push(`${index.table}: unique index ${index.name} omits tenant_id`);
    }
  }
  return problems;
}
