/**
 * Polygon rings from a relation's member ways (node-id lists): ways that share end nodes are
 * joined until they close. Open leftovers are dropped. Runs per relation on its few members.
 */

/** Joins ways (node-id lists) into closed rings; open leftovers are dropped. */
export function assembleRings(ways: number[][]): number[][] {
  const rest = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: number[][] = [];
  while (rest.length > 0) {
    let ring = rest.pop()!;
    let grown = true;
    while (ring[0] !== ring[ring.length - 1] && grown) {
      grown = false;
      const end = ring[ring.length - 1]!;
      for (let i = 0; i < rest.length; i++) {
        const w = rest[i]!;
        if (w[0] === end) ring = ring.concat(w.slice(1));
        else if (w[w.length - 1] === end) ring = ring.concat(w.slice(0, -1).reverse());
        else continue;
        rest.splice(i, 1);
        grown = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}
