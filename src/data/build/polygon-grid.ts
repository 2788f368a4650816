/**
 * Point-in-polygon without walking every edge: an edge grid over the polygon's box. Each cell
 * lists the edges that touch it (CSR typed arrays) and knows whether its centre is inside (found
 * once per grid row by a scanline). A test finds the point's cell and counts only the crossings
 * between the cell centre and the point with that cell's edges: the segment lies inside the
 * cell, so any edge it crosses is listed there. Even-odd rule over all rings (holes included),
 * the same answer as a ray cast over every edge.
 */
export class PolygonGrid {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly cw: number;
  private readonly ch: number;
  /** Edge endpoints x0 y0 x1 y1 per edge. */
  private readonly edges: Float64Array;
  private readonly cellStart: Uint32Array;
  private readonly cellEdges: Uint32Array;
  private readonly centreInside: Uint8Array;

  constructor(rings: Float64Array[], cellsPerEdge = 1) {
    let nEdges = 0;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const r of rings) {
      const n = r.length >> 1;
      if (n < 3) continue;
      nEdges += n;
      for (let i = 0; i < n; i++) {
        const x = r[2 * i]!, y = r[2 * i + 1]!;
        if (x < minX) minX = x; if (x > maxX) maxX = x;
        if (y < minY) minY = y; if (y > maxY) maxY = y;
      }
    }
    this.minX = minX; this.minY = minY; this.maxX = maxX; this.maxY = maxY;
    const edges = new Float64Array(nEdges * 4);
    let e = 0;
    for (const r of rings) {
      const n = r.length >> 1;
      if (n < 3) continue;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        edges[e++] = r[2 * j]!; edges[e++] = r[2 * j + 1]!; edges[e++] = r[2 * i]!; edges[e++] = r[2 * i + 1]!;
      }
    }
    this.edges = edges;
    // about one cell per edge, shaped like the box
    const w = Math.max(maxX - minX, 1e-12), h = Math.max(maxY - minY, 1e-12);
    const cells = Math.max(1, Math.min(4_000_000, Math.ceil(nEdges * cellsPerEdge)));
    this.nx = Math.max(1, Math.min(4096, Math.round(Math.sqrt((cells * w) / h))));
    this.ny = Math.max(1, Math.min(4096, Math.round(cells / this.nx)));
    this.cw = w / this.nx;
    this.ch = h / this.ny;
    // pass 1: count edge-cell incidences (cells the edge's box covers), pass 2: fill
    const count = new Uint32Array(this.nx * this.ny + 1);
    const each = (fn: (cell: number, edge: number) => void) => {
      for (let k = 0; k < nEdges; k++) {
        const x0 = edges[4 * k]!, y0 = edges[4 * k + 1]!, x1 = edges[4 * k + 2]!, y1 = edges[4 * k + 3]!;
        const cx0 = this.col(Math.min(x0, x1)), cx1 = this.col(Math.max(x0, x1));
        const cy0 = this.row(Math.min(y0, y1)), cy1 = this.row(Math.max(y0, y1));
        for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) fn(cy * this.nx + cx, k);
      }
    };
    each((c) => { count[c + 1]!++; });
    for (let c = 0; c < this.nx * this.ny; c++) count[c + 1]! += count[c]!;
    this.cellStart = count;
    const fill = count.slice(0, this.nx * this.ny);
    this.cellEdges = new Uint32Array(count[this.nx * this.ny]!);
    each((c, k) => { this.cellEdges[fill[c]!++] = k; });
    // centre of every cell: a scanline per row at the centres' y, crossings sorted along x
    this.centreInside = new Uint8Array(this.nx * this.ny);
    const seen = new Int32Array(nEdges).fill(-1);
    let xs = new Float64Array(64);
    for (let cy = 0; cy < this.ny; cy++) {
      const y = minY + (cy + 0.5) * this.ch;
      let nxs = 0;
      for (let cx = 0; cx < this.nx; cx++) {
        const c = cy * this.nx + cx;
        for (let p = this.cellStart[c]!; p < this.cellStart[c + 1]!; p++) {
          const k = this.cellEdges[p]!;
          if (seen[k] === cy) continue;
          seen[k] = cy;
          const x0 = edges[4 * k]!, y0 = edges[4 * k + 1]!, x1 = edges[4 * k + 2]!, y1 = edges[4 * k + 3]!;
          if ((y0 > y) !== (y1 > y)) {
            if (nxs === xs.length) { const b = new Float64Array(xs.length * 2); b.set(xs); xs = b; }
            xs[nxs++] = ((x1 - x0) * (y - y0)) / (y1 - y0) + x0;
          }
        }
      }
      const sorted = xs.subarray(0, nxs).sort();
      let p = 0;
      for (let cx = 0; cx < this.nx; cx++) {
        const x = minX + (cx + 0.5) * this.cw;
        while (p < nxs && sorted[p]! < x) p++;
        // crossings to the right of the centre decide (the ray-cast rule)
        this.centreInside[cy * this.nx + cx] = (nxs - p) & 1;
      }
    }
  }

  get edgeCount(): number {
    return this.edges.length / 4;
  }

  /** True when (x = lon, y = lat) is inside (even-odd over all rings). */
  contains(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const cx = this.col(x), cy = this.row(y);
    const c = cy * this.nx + cx;
    const px = this.minX + (cx + 0.5) * this.cw, py = this.minY + (cy + 0.5) * this.ch;
    let inside = this.centreInside[c] === 1;
    const e = this.edges;
    for (let p = this.cellStart[c]!, end = this.cellStart[c + 1]!; p < end; p++) {
      const k = this.cellEdges[p]! * 4;
      if (segmentsCross(px, py, x, y, e[k]!, e[k + 1]!, e[k + 2]!, e[k + 3]!)) inside = !inside;
    }
    return inside;
  }

  private col(x: number): number {
    const c = Math.floor((x - this.minX) / this.cw);
    return c < 0 ? 0 : c >= this.nx ? this.nx - 1 : c;
  }

  private row(y: number): number {
    const r = Math.floor((y - this.minY) / this.ch);
    return r < 0 ? 0 : r >= this.ny ? this.ny - 1 : r;
  }
}

/**
 * Whether segment P→Q crosses edge A→B, with the ray cast's half-open rule on the edge's
 * end points (an edge counts when A and B lie on different sides of PQ's line, A's side
 * taken as "above or on"), so a path through a shared vertex is counted once.
 */
function segmentsCross(px: number, py: number, qx: number, qy: number, ax: number, ay: number, bx: number, by: number): boolean {
  const dx = qx - px, dy = qy - py;
  const sa = dx * (ay - py) - dy * (ax - px);
  const sb = dx * (by - py) - dy * (bx - px);
  if ((sa > 0) === (sb > 0)) return false;
  const ex = bx - ax, ey = by - ay;
  const sp = ex * (py - ay) - ey * (px - ax);
  const sq = ex * (qy - ay) - ey * (qx - ax);
  return (sp > 0) !== (sq > 0);
}
