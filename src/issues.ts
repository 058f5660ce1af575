/**
 * The one formatter of zod's issues: every refusal of a schema (an event, createGame's options,
 * a checkpoint hook's result, a snapshot, a scenario) reads "field.path: what it must be", naming
 * the field and the bound or the allowed values, like the engine's own messages. zod/mini carries
 * no messages of its own (each of its issues says "Invalid input"): the message is built from
 * the issue's code and what it carries (the expected type, the allowed values, the bound), and
 * the value given when the parse reported it (`{ reportInput: true }`).
 */

/** A zod issue, as far as the formatter reads it. */
export interface Issue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
  readonly values?: readonly unknown[];
  readonly origin?: string;
  readonly maximum?: unknown;
  readonly minimum?: unknown;
  readonly keys?: readonly string[];
  readonly input?: unknown;
  readonly errors?: readonly (readonly Issue[])[];
  readonly issues?: readonly Issue[];
}

/** zod's message when the schema gave none: never shown as it is. */
const BARE = 'Invalid input';

/**
 * Formats the first zod issue as "root.field.path: what it must be[, got what was given]". In a
 * union, the issue is the one of the option that came closest: among the options whose tag (a
 * one-value enum) matched, the one that failed deepest; when no option's tag matched, the
 * message lists every tag; when every option failed on the value itself, it lists what each
 * accepts.
 */
export function describeIssue(error: { issues: readonly Issue[] }, root = ''): string {
  const first = error.issues[0];
  if (first === undefined) return `${root || 'value'}: is invalid`;
  const keys: PropertyKey[] = [...first.path];
  let issue: Issue = first;
  let prefix = '';
  for (;;) {
    if (issue.code === 'invalid_union' && issue.errors !== undefined && issue.errors.length > 0) {
      const union = unionIssue(issue.errors);
      keys.push(...union.path);
      if ('text' in union) return `${pathOf(root, keys)}: ${union.text}`;
      issue = union;
    } else if ((issue.code === 'invalid_key' || issue.code === 'invalid_element') && issue.issues?.[0] !== undefined) {
      if (issue.code === 'invalid_key') prefix = 'the key ';
      issue = issue.issues[0];
      keys.push(...issue.path);
    } else {
      break;
    }
  }
  return `${pathOf(root, keys)}: ${prefix}${expectation(issue)}`;
}

/** "root.a[0].b" (or "value" with neither root nor path). */
function pathOf(root: string, keys: readonly PropertyKey[]): string {
  let out = root;
  for (const k of keys) out += typeof k === 'number' ? `[${k}]` : out === '' ? String(k) : `.${String(k)}`;
  return out || 'value';
}

/** Whether an option of a union failed on its tag: a one-value enum (`kind`, `type`). */
const missedTag = (option: readonly Issue[]) => option.some((i) => i.code === 'invalid_value' && i.values?.length === 1);

/** The issue of the union's option that came closest, or the message (and where it is) when none did. */
function unionIssue(options: readonly (readonly Issue[])[]): Issue | { path: readonly PropertyKey[]; text: string } {
  const tagged = options.filter((o) => !missedTag(o) && o[0] !== undefined);
  const closest = tagged.length === 0 ? undefined : (tagged.reduce((best, o) => ((o[0] as Issue).path.length > (best[0] as Issue).path.length ? o : best))[0] as Issue);
  // One option got further than the value itself (a field of the object it is): its issue.
  if (closest !== undefined && (closest.path.length > 0 || tagged.length === 1)) return closest;
  const tags = options.map((o) => o.find((i) => i.code === 'invalid_value' && i.values?.length === 1)).filter((i) => i !== undefined);
  if (closest === undefined && tags.length === options.length && tags.length > 0) {
    const tag = tags[0] as Issue;
    const values = tags.map((i) => i.values?.[0]);
    return { path: tag.path, text: `must be ${oneOf(values)}${got(tag)}` };
  }
  // Every option failed on the value itself (a string or an object, say): what each accepts.
  const accepted = [...new Set(options.map((o) => (o[0] === undefined ? 'valid' : accepts(o[0]))))];
  const input = options[0]?.[0];
  return { path: [], text: `must be ${accepted.join(', or ')}${input === undefined ? '' : got(input)}` };
}

/** What an issue says the value must be, and what it was. */
function expectation(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if ('input' in issue && issue.input === undefined) return `is missing (it must be ${accepts(issue)})`;
      return `must be ${accepts(issue)}${got(issue)}`;
    case 'invalid_value':
    case 'too_big':
    case 'too_small':
      return `must ${issue.code === 'invalid_value' ? 'be ' : ''}${accepts(issue)}${got(issue)}`;
    case 'unrecognized_keys':
      return `has keys no such value has: ${(issue.keys ?? []).slice(0, 3).map(show).join(', ')}${(issue.keys?.length ?? 0) > 3 ? ', ...' : ''}`;
    default: {
      // A refinement's own message (the engine's bounds all have one), with the value given when it is a number or a string.
      const message = issue.message === BARE || issue.message === '' ? `is not valid${issue.code === undefined || issue.code === 'custom' ? '' : ` (${issue.code})`}` : issue.message;
      const input = 'input' in issue && (typeof issue.input === 'number' || typeof issue.input === 'string') ? show(issue.input) : '';
      return input === '' || message.includes(input) ? message : `${message}, got ${input}`;
    }
  }
}

/** What an issue accepts: "a string", "one of 'a', 'b'", "have at most 1000 entries", ... */
function accepts(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_NAMES[issue.expected ?? ''] ?? (issue.expected === undefined ? 'of another type' : `of type ${issue.expected}`);
    case 'invalid_value':
      return oneOf(issue.values ?? []);
    case 'too_big':
      return `${issue.origin === 'array' ? 'have' : 'be'} at most ${bound(issue, issue.maximum)}`;
    case 'too_small':
      return `${issue.origin === 'array' ? 'have' : 'be'} at least ${bound(issue, issue.minimum)}`;
    default:
      return issue.message === BARE ? 'valid' : issue.message;
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'a list', null: 'null', record: 'an object' };

function bound(issue: Issue, n: unknown): string {
  const count = String(n);
  return issue.origin === 'array' ? `${count} ${n === 1 ? 'entry' : 'entries'}` : issue.origin === 'string' ? `${count} characters long` : count;
}

function oneOf(values: readonly unknown[]): string {
  return values.length === 1 ? show(values[0]) : `one of ${values.map(show).join(', ')}`;
}

/** ", got <the value>" when the parse reported it. */
function got(issue: Issue): string {
  return 'input' in issue ? `, got ${show(issue.input)}` : '';
}

/**
 * A value as messages show it, read without trusting it: no toString or toJSON is called (an
 * object is shown by its kind, a list by its length), a string of more than 40 characters by its
 * length.
 */
export function show(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v.length > 40 ? `a string of ${v.length} characters` : `'${JSON.stringify(v).slice(1, -1)}'`;
    case 'number':
    case 'boolean':
      return String(v);
    case 'bigint':
      return `${String(v)}n`;
    case 'undefined':
      return 'nothing';
    case 'object':
      if (v === null) return 'null';
      try {
        return Array.isArray(v) ? `a list of ${v.length} ${v.length === 1 ? 'entry' : 'entries'}` : 'an object';
      } catch {
        return 'an object';
      }
    default:
      return `a ${typeof v}`;
  }
}
