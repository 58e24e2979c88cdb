// A resource template's variables and the URI it makes of their values (RFC 6570: simple `{id}`, reserved `{+path}`
// and query `{?a,b}` expressions — what resource templates use), for the explorer's Resources view.
import 'client-only';

const EXPRESSION = /\{([+?]?)([^{}]+)\}/g;

/** The variables of `template`, in order, each once. */
export function templateVariables(template: string): string[] {
  const names = [...template.matchAll(EXPRESSION)].flatMap(([, , list]) => list.split(',').map((name) => name.trim()));
  return [...new Set(names.filter(Boolean))];
}

/** `template` with `values` put in (a variable left empty: nothing for it, as RFC 6570 leaves an undefined one out). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_, operator: string, list: string) => {
    const names = list.split(',').map((name) => name.trim());
    const given = names.filter((name) => values[name]);
    if (operator === '?') {
      const pairs = given.map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(values[name])}`);
      return pairs.length ? `?${pairs.join('&')}` : '';
    }
    const encode = operator === '+' ? encodeURI : encodeURIComponent;
    return given.map((name) => encode(values[name])).join(',');
  });
}
