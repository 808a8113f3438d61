// The explorer's filters: a plain GET form, so every filtered view is a URL (shareable, back-button friendly) and
// works without JavaScript.
import Link from "next/link";
import { Button, Checkbox, Input, Select } from "@/components/ui";
import type { ExplorerFilters } from "@/lib/server/audit/explorer";
import { revealHidden } from "@/lib/domain/display-text";

interface Options {
  users: Array<{ id: string; name: string; email: string }>;
  cases: Array<{ id: string; title: string }>;
  models: string[];
  promptVersions: string[];
  responseTypes: string[];
}

const label = "block text-xs font-medium text-slate-600";

export function AuditFilters({ filters, options }: { filters: ExplorerFilters; options: Options }) {
  return (
    <form
      method="get"
      action="/audit"
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6"
      data-testid="audit-filters"
      aria-label="Filter audit entries"
    >
      {filters.thread ? <input type="hidden" name="thread" value={filters.thread} /> : null}
      <div className="lg:col-span-2">
        <label htmlFor="f-q" className={label}>
          Search questions
        </label>
        <Input id="f-q" name="q" type="search" defaultValue={filters.q ?? ""} placeholder="words in stored question text" />
      </div>
      <div>
        <label htmlFor="f-user" className={label}>
          User
        </label>
        <Select id="f-user" name="user" defaultValue={filters.user ?? ""}>
          <option value="">Anyone</option>
          {options.users.map((u) => (
            <option key={u.id} value={u.id}>
              {revealHidden(`${u.name} (${u.email})`)}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="f-case" className={label}>
          Case
        </label>
        <Select id="f-case" name="case" defaultValue={filters.case ?? ""}>
          <option value="">Any case</option>
          {options.cases.map((c) => (
            <option key={c.id} value={c.id}>
              {revealHidden(`${c.id} — ${c.title}`)}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="f-from" className={label}>
          From (UTC day)
        </label>
        <Input id="f-from" name="from" type="date" defaultValue={filters.from ?? ""} />
      </div>
      <div>
        <label htmlFor="f-to" className={label}>
          To (UTC day)
        </label>
        <Input id="f-to" name="to" type="date" defaultValue={filters.to ?? ""} />
      </div>
      <div>
        <label htmlFor="f-kind" className={label}>
          Entries
        </label>
        <Select id="f-kind" name="kind" defaultValue={filters.kind ?? "all"}>
          <option value="all">All</option>
          <option value="answers">Answers</option>
          <option value="admin">Admin changes</option>
          <option value="audit">Audit (exports, retention)</option>
        </Select>
      </div>
      <AnyOf id="f-rt" label="Response type" name="responseType" value={filters.responseType} values={options.responseTypes} />
      <AnyOf id="f-model" label="Model" name="model" value={filters.model} values={options.models} />
      <AnyOf id="f-pv" label="Prompt version" name="promptVersion" value={filters.promptVersion} values={options.promptVersions} />
      <fieldset className="flex flex-col justify-end gap-1 lg:col-span-2">
        <legend className="sr-only">Flags</legend>
        <Checkbox
          name="needsReview"
          value="1"
          defaultChecked={filters.needsReview}
          label="Needs review (low confidence)"
          data-testid="filter-needs-review"
        />
        <Checkbox name="citationsOutside" value="1" defaultChecked={filters.citationsOutside} label="Citations not all in context" />
        <Checkbox name="policyFiltered" value="1" defaultChecked={filters.policyFiltered} label="Something filtered by policy" />
      </fieldset>
      <div className="flex items-end gap-2 lg:col-span-6">
        <Button type="submit" data-testid="apply-filters">
          Apply filters
        </Button>
        <Link href="/audit" className="text-sm text-slate-600 hover:underline">
          Clear
        </Link>
      </div>
    </form>
  );
}

/** A filter that is either "Any" or one of the values the ledger holds. */
function AnyOf({
  id,
  label: text,
  name,
  value,
  values,
}: {
  id: string;
  label: string;
  name: string;
  value: string | undefined;
  values: readonly string[];
}) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <Select id={id} name={name} defaultValue={value ?? ""}>
        <option value="">Any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </Select>
    </div>
  );
}
