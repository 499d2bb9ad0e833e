/**
 * The rows a second query finds for a list's rows (an owner's listings' pending edits, the
 * console's reviews' flags), grouped by the id of the row each belongs to, in the order the query
 * answers. `load` is asked once with every id, and not at all for an empty list.
 */
export async function groupedByParent<Child>(
  parentIds: number[],
  load: (ids: number[]) => Promise<Child[]>,
  parentOf: (child: Child) => number,
): Promise<Map<number, Child[]>> {
  const groups = new Map<number, Child[]>();
  if (parentIds.length === 0) return groups;
  for (const child of await load(parentIds)) {
    const group = groups.get(parentOf(child));
    if (group) group.push(child);
    else groups.set(parentOf(child), [child]);
  }
  return groups;
}
