// Baccarat's Scoreboard: the roads as drawn on every casino scoreboard, from the feed's roads frame
// (`app.roads`). The console loads it by the URL the table info names (views.js).
import { $, h, s } from '/dom.js';
import { app } from '/state.js';

const COLOURS = { B: '#d3202f', P: '#1f5fd6', T: '#169c45', red: '#d3202f', blue: '#1f5fd6' };

const SIZE = 20;

/**
 * A six-row grid as SVG, at least `minCols` wide and always one empty column
 * past the last drawn one, so that scrolling to the latest cells never has
 * to cut a column at the left (see `scrollRoadsToLatest`).
 */
function roadSvg(cells, minCols, drawCell) {
  const lastCol = Math.max(-1, ...cells.map((cell) => cell.col));
  const cols = Math.max(minCols, lastCol + 2);
  const size = SIZE;
  const svg = s('svg', {
    viewBox: `0 0 ${cols * size} ${6 * size}`,
    class: 'road-svg',
    role: 'img',
    'data-cells': cells.length,
    'data-last-col': lastCol,
  });
  for (let c = 0; c <= cols; c++)
    svg.append(s('line', { x1: c * size, y1: 0, x2: c * size, y2: 6 * size, class: 'grid' }));
  for (let r = 0; r <= 6; r++)
    svg.append(s('line', { x1: 0, y1: r * size, x2: cols * size, y2: r * size, class: 'grid' }));
  for (const cell of cells) {
    const g = s('g', {
      transform: `translate(${cell.col * size + size / 2} ${cell.row * size + size / 2})`,
      'data-col': cell.col,
      'data-row': cell.row,
    });
    drawCell(g, cell);
    svg.append(g);
  }
  return svg;
}

function pairDots(g, cell) {
  if (cell.banker_pair)
    g.append(s('circle', { cx: -6, cy: -6, r: 2.6, fill: COLOURS.B, class: 'pair banker-pair' }));
  if (cell.player_pair)
    g.append(s('circle', { cx: 6, cy: 6, r: 2.6, fill: COLOURS.P, class: 'pair player-pair' }));
}

/**
 * The newest columns in view, each whole: a scoreboard is read from its
 * latest cell, not from the empty grid padded after it. The box starts at a
 * column's edge so the first column shown is never cut in half. A hidden
 * page has no layout: it is scrolled again when shown (app.js) or resized.
 */
function scrollRoadsToLatest() {
  for (const scroller of document.querySelectorAll('#page-scoreboard .road > div')) {
    const svg = scroller.querySelector('svg.road-svg');
    if (!svg) continue;
    const column = svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width / SIZE);
    if (!(column > 0)) continue;
    const lastCol = Number(svg.dataset.lastCol);
    const whole = Math.max(1, Math.floor(scroller.clientWidth / column + 0.01));
    const first = Math.max(0, lastCol + 1 - whole);
    scroller.scrollLeft = first * column;
  }
}

window.addEventListener('resize', scrollRoadsToLatest);

const ROADS = [
  ['bead', 'Bead plate', 'bead'],
  ['big', 'Big road', 'big'],
  ['small', 'Big eye boy', 'big_eye_boy'],
  ['small', 'Small road', 'small_road'],
  ['small', 'Cockroach pig', 'cockroach_pig'],
  ['whatif', 'If next is…', 'next'],
];

/** The roads' frames on the Scoreboard page, once. */
function mount(container) {
  if (container.dataset.board === 'roads') return;
  container.dataset.board = 'roads';
  container.replaceChildren(
    h('div', { id: 'counts', class: 'counts' }),
    h(
      'div',
      { class: 'roads' },
      ROADS.map(([kind, title, name]) =>
        h(
          'figure',
          { class: `road ${kind}` },
          h('figcaption', {}, title),
          h('div', { id: `road-${name}` }),
        ),
      ),
    ),
    h('p', { id: 'no-roads', class: 'muted' }, 'No shoe dealt yet.'),
  );
  render();
}

function render() {
  const roads = app.roads;
  if (!$('no-roads')) return;
  $('no-roads').hidden = !!roads;
  if (!roads) return;
  // The journal seq these roads are as of: a display (or a test) can tell which shoe it shows.
  $('page-scoreboard').dataset.seq = String(roads.seq);
  const counts = roads.counts || {};
  $('counts').replaceChildren(
    h('span', { class: 'count banker' }, `Banker ${counts.B ?? 0}`),
    h('span', { class: 'count player' }, `Player ${counts.P ?? 0}`),
    h('span', { class: 'count tie' }, `Tie ${counts.T ?? 0}`),
    h('span', { class: 'count' }, `B pair ${counts.banker_pairs ?? 0}`),
    h('span', { class: 'count' }, `P pair ${counts.player_pairs ?? 0}`),
    h('span', { class: 'count' }, `Coups ${counts.coups ?? 0}`),
  );
  $('road-bead').replaceChildren(
    roadSvg(roads.bead_plate, 8, (g, cell) => {
      g.setAttribute('class', `bead ${cell.result}`);
      g.append(s('circle', { r: 8.5, fill: COLOURS[cell.result] }));
      g.append(s('text', { y: 3.6, 'text-anchor': 'middle', class: 'bead-letter' }, cell.result));
      pairDots(g, cell);
    }),
  );
  $('road-big').replaceChildren(
    roadSvg(roads.big_road, 24, (g, cell) => {
      g.setAttribute('class', `big ${cell.result}`);
      g.append(
        s('circle', { r: 7.5, fill: 'none', stroke: COLOURS[cell.result], 'stroke-width': 2.6 }),
      );
      if (cell.ties > 0) {
        g.append(
          s('line', {
            x1: -7,
            y1: 7,
            x2: 7,
            y2: -7,
            stroke: COLOURS.T,
            'stroke-width': 2.4,
            class: 'tie',
          }),
        );
        if (cell.ties > 1)
          g.append(s('text', { y: 3.5, 'text-anchor': 'middle', class: 'tie-count' }, cell.ties));
      }
      pairDots(g, cell);
    }),
  );
  const drawDerived = {
    big_eye_boy: (g, cell) =>
      g.append(
        s('circle', { r: 6.5, fill: 'none', stroke: COLOURS[cell.colour], 'stroke-width': 2.4 }),
      ),
    small_road: (g, cell) => g.append(s('circle', { r: 6.5, fill: COLOURS[cell.colour] })),
    cockroach_pig: (g, cell) =>
      g.append(
        s('line', {
          x1: -6,
          y1: 6,
          x2: 6,
          y2: -6,
          stroke: COLOURS[cell.colour],
          'stroke-width': 3,
        }),
      ),
  };
  for (const [name, draw] of Object.entries(drawDerived)) {
    $(`road-${name}`).replaceChildren(
      roadSvg(roads[name], 24, (g, cell) => {
        g.setAttribute('class', `derived ${cell.colour}`);
        draw(g, cell);
      }),
    );
  }
  scrollRoadsToLatest();
  const next = roads.next || {};
  $('road-next').replaceChildren(
    ...['B', 'P'].map((side) =>
      h(
        'div',
        { class: `next next-${side}`, 'data-side': side },
        h('span', { class: `next-label ${side}` }, side === 'B' ? 'Banker' : 'Player'),
        ...Object.entries(next[side] || {}).map(([name, colour]) => {
          const svg = s('svg', {
            viewBox: '-10 -10 20 20',
            class: 'next-mark',
            'data-road': name,
            'data-colour': colour || 'none',
          });
          if (colour) drawDerived[name](svg, { colour });
          return svg;
        }),
      ),
    ),
  );
}

export const scoreboard = { mount, render, shown: scrollRoadsToLatest };
