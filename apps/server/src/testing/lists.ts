/** The list, asserting it holds something: `.every()` over an empty list passes whatever it checks. */
export function nonEmpty<List extends { length: number }>(list: List): List {
  if (list.length === 0) throw new Error('expected a non-empty list: a check of every item in it would pass on nothing');
  return list;
}
