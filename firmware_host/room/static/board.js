// The board as SVG, from a position document (game/RECORD.md): White's home board bottom right.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PW = 24, BAR = 24, EDGE = 10, TOP = 14, FIELD = 240, TRAY = 30, R = 11;
const LEFT = EDGE, RIGHT = EDGE + 6 * PW + BAR, TRAY_X = RIGHT + 6 * PW + 8;
const WIDTH = TRAY_X + TRAY + EDGE, HEIGHT = TOP + FIELD + 14, BOTTOM = TOP + FIELD;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pointColumn(point) {  // x of the left edge of board point 1..24, and whether it hangs from the top
  if (point <= 6) return [RIGHT + (6 - point) * PW, false];
  if (point <= 12) return [LEFT + (12 - point) * PW, false];
  if (point <= 18) return [LEFT + (point - 13) * PW, true];
  return [RIGHT + (point - 19) * PW, true];
}

function checker(parent, x, y, colour, label) {
  el("circle", {cx: x, cy: y, r: R - 0.5, class: colour === "w" ? "ck-white" : "ck-black"}, parent);
  if (label) {
    const text = el("text", {x: x, y: y + 4, "text-anchor": "middle", class: colour === "w" ? "ck-label-w" : "ck-label-b"}, parent);
    text.textContent = label;
  }
}

function stack(parent, x, fromTop, checkers) {  // bottom to top, from the edge inward; 5 shown, then a count
  const shown = Math.min(checkers.length, 5);
  for (let i = 0; i < shown; i++) {
    const y = fromTop ? TOP + R + i * 2 * R : BOTTOM - R - i * 2 * R;
    const last = i === shown - 1 && checkers.length > 5;
    checker(parent, x, y, checkers[last ? checkers.length - 1 : i], last ? String(checkers.length) : "");
  }
}

function drawBoard(position, options = {}) {
  const svg = el("svg", {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "img"});
  el("rect", {x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "frame"}, svg);
  el("rect", {x: LEFT, y: TOP, width: 12 * PW + BAR, height: FIELD, class: "field"}, svg);
  el("rect", {x: LEFT + 6 * PW, y: TOP, width: BAR, height: FIELD, class: "bar"}, svg);
  el("rect", {x: TRAY_X, y: TOP, width: TRAY, height: FIELD, class: "tray"}, svg);
  for (let point = 1; point <= 24; point++) {
    const [x, top] = pointColumn(point);
    const base = top ? TOP : BOTTOM, apex = top ? TOP + 100 : BOTTOM - 100;
    el("polygon", {points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${apex}`,
                   class: point % 2 ? "pt-dark" : "pt-light"}, svg);
    const label = el("text", {x: x + PW / 2, y: top ? TOP - 4 : HEIGHT - 3, "text-anchor": "middle", class: "pt-num"}, svg);
    label.textContent = String(point);
  }
  if (!position) return svg;
  position.points.forEach((checkers, index) => {
    const [x, top] = pointColumn(index + 1);
    stack(svg, x + PW / 2, top, checkers);
  });
  const barX = LEFT + 6 * PW + BAR / 2;
  const bar = position.bar || {white: 0, black: 0}, off = position.off || {white: 0, black: 0};
  if (bar.black) stack(svg, barX, true, "b".repeat(bar.black).split(""));
  if (bar.white) stack(svg, barX, false, "w".repeat(bar.white).split(""));
  for (const [colour, y, count] of [["w", BOTTOM - 6, off.white], ["b", TOP + 6, off.black]]) {
    for (let i = 0; i < Math.min(count, 15); i++) {
      el("rect", {x: TRAY_X + 3, y: colour === "w" ? y - i * 7 - 5 : y + i * 7 - 1, width: TRAY - 6, height: 6,
                  class: colour === "w" ? "ck-white" : "ck-black"}, svg);
    }
  }
  if (options.dice) {
    const right = position.turn === "white";
    const cx = (right ? RIGHT : LEFT) + 3 * PW;
    options.dice.forEach((face, i) => {
      const x = cx - 22 + i * 26, y = TOP + FIELD / 2 - 10;
      el("rect", {x: x, y: y, width: 20, height: 20, rx: 3, class: "die"}, svg);
      const text = el("text", {x: x + 10, y: y + 15, "text-anchor": "middle", class: "die-face"}, svg);
      text.textContent = String(face);
    });
  }
  if (options.cube) {
    const owner = options.cube.owner;
    const y = owner === "white" ? BOTTOM - 24 : owner === "black" ? TOP + 4 : TOP + FIELD / 2 - 10;
    el("rect", {x: barX - 10, y: y, width: 20, height: 20, rx: 2, class: "cube"}, svg);
    const text = el("text", {x: barX, y: y + 14, "text-anchor": "middle", class: "cube-face"}, svg);
    text.textContent = options.cube.value === 1 ? "64" : String(options.cube.value);
  }
  return svg;
}

window.drawBoard = drawBoard;
