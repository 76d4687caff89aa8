/**
 * The CMS marks the matched words of a result's title and snippet with two control characters
 * (U+0002 before, U+0003 after; cms/src/plugins/site-search/server/services/search/document-text.js,
 * which removes them from the indexed text). Split into plain and marked runs, the page renders
 * `<mark>` elements from data: no HTML from the CMS or the visitor is ever parsed.
 */
export interface MarkedRun {
  text: string;
  marked: boolean;
}

const START = "\u0002";
const END = "\u0003";

export function markedRuns(value: string): MarkedRun[] {
  const runs: MarkedRun[] = [];
  let marked = false;
  let text = "";
  const flush = () => {
    if (text) runs.push({ text, marked });
    text = "";
  };
  for (const char of value) {
    if (char === START || char === END) {
      flush();
      marked = char === START;
    } else text += char;
  }
  flush();
  return runs;
}
