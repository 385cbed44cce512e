// The director's pages: the room (tiles), one table, the results. Text goes in with textContent only.
"use strict";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

const room = {me: null, tiles: new Map(), order: [], status: null, received: new Map()};

async function api(path, options = {}) {
  const response = await fetch(path, {credentials: "same-origin", ...options});
  const doc = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(doc.error || response.statusText);
  return doc;
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockNow(tile, colour) {  // the reserve now, counted down from when the state arrived
  const clock = tile.state && tile.state.clock;
  if (!clock) return null;
  let left = clock[colour];
  if (clock.running === colour) {
    const since = (Date.now() - (room.received.get(tile.table) || Date.now())) / 1000;
    left -= Math.max(0, since - clock.delay_left);
  }
  return left;
}

function clockLabel(tile, colour) {
  const running = tile.state.clock.running === colour;
  return `${running ? "\u25b6 " : ""}${colour} ${clockText(clockNow(tile, colour))}`;
}

function matchLine(state) {
  if (state.chouette) return `${state.variant} chouette, game ${state.game}, ${state.chouette.games} played`;
  const length = state.length ? `match to ${state.length}` : "money session";
  return `${state.variant}, ${length}, game ${state.game}${state.crawford ? " (Crawford)" : ""}`;
}

function turnLine(state) {
  const asked = state.chouette && state.chouette.asked;
  if (asked) {
    const who = asked.side === "team" ? asked.player : `the box ${asked.player}`;
    const what = asked.kind === "turn" ? `double ${asked.member}'s cube or let it be` : `${asked.answers.join(" or ")} on ${asked.member}'s cube`;
    return `${asked.code}: ${who} to ${what}`;
  }
  if (state.chouette && state.over) return "session over";
  if (state.over) return `match over: ${state.winner ? state.players[state.winner] : "nobody"} wins`;
  const who = state.turn ? `${state.players[state.turn]} (${state.turn}): ` : "";
  const dice = state.dice ? ` ${state.dice[0]}-${state.dice[1]}` : "";
  return `${who}${state.waiting}${dice}`;
}

function renderStatus(status) {
  const box = document.getElementById("status");
  if (!box || !status) return;
  const counts = status.counts || {};
  const rejected = Object.entries(status.rejected || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  const last = (status.rejections || []).slice(-1)[0];
  box.replaceChildren(
    h("span", {class: status.connected ? "" : "bad"}, status.connected ? "broker connected" : "BROKER DISCONNECTED"),
    ` · ${status.online}/${status.tables} tables online · ${counts.messages || 0} messages, `,
    `${counts.events || 0} events held, ${counts.duplicate || 0} duplicates · `,
    h("span", {class: status.rejected_total ? "bad" : "", id: "rejected"},
      `${status.rejected_total} rejected${rejected ? ` (${rejected})` : ""}`),
    last ? h("span", {class: "muted", title: last.detail}, ` · last: ${last.reason} on ${last.topic}: ${last.detail}`) : "");
}

function renderLogin() {
  if (document.body.dataset.page === "table") memberView();
  const box = document.getElementById("login");
  if (!box) return;
  if (room.me) {
    box.replaceChildren(h("span", {}, `referee: ${room.me}`,
      h("button", {id: "logout", onclick: async () => { await api("/logout", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}); room.me = null; refresh(); }}, "log out")));
    return;
  }
  const name = h("input", {id: "login-name", placeholder: "referee", autocomplete: "username", size: 10});
  const password = h("input", {id: "login-password", type: "password", placeholder: "password", autocomplete: "current-password", size: 10});
  const message = h("span", {id: "login-message"});
  const form = h("form", {id: "login-form", onsubmit: async (event) => {
    event.preventDefault();
    try {
      const doc = await api("/login", {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify({name: name.value, password: password.value})});
      room.me = doc.referee;
      refresh();
    } catch (error) { message.textContent = error.message; }
  }}, name, password, h("button", {type: "submit", id: "login-button"}, "log in"), message);
  box.replaceChildren(form);
}

function tileElement(tile) {
  const state = tile.state;
  const classes = ["tile", tile.attention, tile.online === false ? "offline" : ""].join(" ");
  const link = h("a", {class: classes, href: `/table/${encodeURIComponent(tile.table)}`, id: `tile-${tile.table}`,
                       "data-table": tile.table, "data-seq": state ? state.seq : 0, "data-held": tile.held,
                       "data-attention": tile.attention || "none"});
  const online = tile.online === null ? "" : tile.online ? "on" : "off";
  link.appendChild(h("div", {class: "head"}, h("span", {}, h("span", {class: `dot ${online}`}), `table ${tile.table}`),
                     h("span", {class: "muted"}, state ? `link ${state.link}` : "no state yet")));
  if (!state) return link;
  const names = state.players;
  if (state.chouette) {
    const named = (name) => playerLabel(state.chouette, name);
    link.appendChild(h("div", {class: "row"}, h("span", {class: "white-player"}, `captain ${named(names.white)} (White)`),
                       h("span", {}, `highest cube ${state.cube.value}${state.cube.owner ? " " + state.cube.owner : ""}`),
                       h("span", {class: "black-player"}, `box ${named(names.black)} (Black)`)));
  } else {
    link.appendChild(h("div", {class: "row"}, h("span", {class: "white-player"}, `${names.white} (White) ${state.score.white}`),
                       h("span", {}, `cube ${state.cube.value}${state.cube.owner ? " " + state.cube.owner : ""}`),
                       h("span", {class: "black-player"}, `${state.score.black} ${names.black} (Black)`)));
  }
  link.appendChild(window.drawBoard(state.position, {dice: state.dice, cube: state.cube}));
  link.appendChild(h("div", {class: "row muted"}, matchLine(state)));
  if (state.clock) {
    link.appendChild(h("div", {class: "row"}, h("span", {class: "clock", "data-colour": "white"}, clockLabel(tile, "white")),
                       h("span", {class: "clock", "data-colour": "black"}, clockLabel(tile, "black"))));
  }
  link.appendChild(h("div", {class: "turn"}, turnLine(state)));
  if (state.chouette) link.appendChild(chouetteElement(state.chouette));
  for (const flag of state.flags) {
    const by = flag.status === "acknowledged" ? ` (acknowledged by ${flag.referee})` : "";
    link.appendChild(h("div", {class: "flag", "data-flag": flag.number}, `FLAG ${flag.number} ${flag.code}: ${flag.message}${by}`));
  }
  return link;
}

function points(value) { return value > 0 ? `+${value}` : String(value); }

function playerLabel(chouette, name) {  // a player who is a bot, named as one: "Cy (bot, expert)" (bot_seat.bot_label)
  const level = (chouette.bots || {})[name];
  return level ? `${name} (bot, ${level})` : name;
}

function chouetteElement(chouette) {  // every member's cube (who is out), and everyone's running total
  const named = (name) => playerLabel(chouette, name);
  const members = chouette.members.map((m) => {
    const cube = `${m.cube}${m.owner ? ` (${m.owner}'s)` : ""}${m.offered ? " offered" : ""}`;
    const out = m.out ? `OUT ${points(m.result)}` : "";
    return h("tr", {class: `member${m.out ? " out" : ""}${(chouette.bots || {})[m.name] ? " bot" : ""}`, "data-member": m.name},
             h("td", {}, m.code), h("td", {}, named(m.name) + (m.captain ? " (captain)" : "")), h("td", {}, cube), h("td", {}, out));
  });
  const totals = Object.entries(chouette.totals).map(([name, total]) => `${name} ${points(total)}`).join(" · ");
  return h("div", {class: "chouette"},
    chouette.box ? h("div", {class: "row muted"}, `box ${named(chouette.box)} · line ${chouette.line.map(named).join(", ")}`) : h("div", {class: "muted"}, "throwing for the order"),
    members.length ? h("table", {class: "members"}, h("tr", {}, h("th", {}, ""), h("th", {}, "member"), h("th", {}, "cube"), h("th", {}, "")), ...members) : "",
    h("div", {class: "totals"}, `totals: ${totals}`),
    Object.keys(chouette.refused || {}).length ? h("div", {class: "muted refused"}, "phone answers refused: " +
      Object.entries(chouette.refused).map(([reason, n]) => `${reason} ${n}`).join(", ")) : "");
}

function applyRoom(doc) {
  if (doc.reset) room.tiles.clear();
  for (const tile of doc.tiles) {
    const old = room.tiles.get(tile.table);
    if (!old || !old.state || !tile.state || old.state.sent !== tile.state.sent) room.received.set(tile.table, Date.now());
    room.tiles.set(tile.table, tile);
  }
  room.order = doc.order;
  room.status = doc.status;
  renderStatus(doc.status);
}

function renderTiles(doc) {
  const grid = document.getElementById("tiles");
  const changed = new Set(doc.reset ? room.order : doc.tiles.map((t) => t.table));
  const existing = new Map([...grid.children].map((node) => [node.dataset.table, node]));
  const nodes = room.order.map((table) => {
    const node = existing.get(table);
    return node && !changed.has(table) ? node : tileElement(room.tiles.get(table));
  });
  nodes.forEach((node, index) => { if (grid.children[index] !== node) grid.insertBefore(node, grid.children[index] || null); });
  while (grid.children.length > nodes.length) grid.lastChild.remove();
  document.getElementById("empty").hidden = nodes.length > 0;
}

function connect(onRoom) {
  const source = new EventSource("/stream");
  source.addEventListener("room", (event) => { const doc = JSON.parse(event.data); applyRoom(doc); onRoom(doc); });
  source.onerror = () => renderStatus({...(room.status || {}), connected: false, counts: {}, rejected: {}});
}

let refresh = () => {};

async function startPage() {
  room.me = (await api("/api/me")).referee;
  renderLogin();
  const page = document.body.dataset.page;
  if (page === "room") {
    refresh = renderLogin;
    connect(renderTiles);
    setInterval(() => document.querySelectorAll(".tile").forEach((node) => {
      const tile = room.tiles.get(node.dataset.table);
      node.querySelectorAll(".clock").forEach((span) => { span.textContent = clockLabel(tile, span.dataset.colour); });
    }), 500);
  } else if (page === "table") {
    startTablePage();
  } else if (page === "results") {
    refresh = renderLogin;
    const load = async () => renderResults(await api("/api/results"));
    await load();
    let timer = null;
    connect(() => { if (!timer) timer = setTimeout(() => { timer = null; load(); }, 2000); });
  }
}

// -- one table ----------------------------------------------------------------------------

function startTablePage() {
  const table = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("title").textContent = `table ${table}`;
  phoneSetup(table);
  window.addEventListener("hashchange", () => {  // a member's link opened on this page: their name and code
    phoneSetup(table);
    document.getElementById("phone").replaceChildren();
    if (room.tiles.has(table)) renderPhone(room.tiles.get(table));
  });
  let shown = null, timer = null;
  const load = async () => {
    try { renderTable(await api(`/api/table/${encodeURIComponent(table)}`)); }
    catch (error) { document.getElementById("match").textContent = error.message; }
  };
  refresh = () => { renderLogin(); load(); };
  load();
  connect((doc) => {
    const tile = doc.tiles.find((t) => t.table === table);
    if (!tile) return;
    renderPhone(tile);
    const key = JSON.stringify([tile.state && tile.state.seq, tile.state && tile.state.sent, tile.rulings]);
    if (key !== shown && !timer) { shown = key; timer = setTimeout(() => { timer = null; load(); }, 150); }
  });
}

async function rule(table, body, message) {
  try {
    await api(`/api/table/${encodeURIComponent(table)}/ruling`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                                 body: JSON.stringify(body)});
    message.textContent = "sent to the table";
  } catch (error) { message.textContent = error.message; }
}

// -- a chouette member's decision from a phone ---------------------------------------------

const phone = {player: "", code: "", sent: new Map()};  // sent: decision id -> what was sent

function phoneSetup(table) {  // the member's name and code: from the link (#player=..&code=..), else remembered
  const given = new URLSearchParams(location.hash.slice(1));
  const key = `phone:${table}`;
  const kept = JSON.parse(localStorage.getItem(key) || "{}");
  phone.player = given.get("player") || kept.player || "";
  phone.code = given.get("code") || kept.code || "";
  phone.save = () => localStorage.setItem(key, JSON.stringify({player: phone.player, code: phone.code}));
  if (given.get("code")) { phone.save(); history.replaceState(null, "", location.pathname); }  // the code leaves the address bar
  memberView();
}

function memberView() {  // a member's phone (a code kept, no referee logged in): the decision and the match only
  document.body.classList.toggle("member", Boolean(phone.code) && !room.me);
}

async function decide(table, ask, answer, message) {
  try {
    const doc = await api(`/api/table/${encodeURIComponent(table)}/decision`, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({player: phone.player, code: phone.code, ask, answer})});
    phone.sent.set(doc.id, answer);
    message.textContent = `${answer}: sent to the table`;
  } catch (error) { message.textContent = error.message; }
}

function renderPhone(tile) {
  const box = document.getElementById("phone");
  if (!box) return;
  const chouette = tile.state && tile.state.chouette;
  if (!chouette) { box.replaceChildren(); return; }
  if (!box.querySelector("#phone-form")) {
    const player = h("select", {id: "phone-player"}, h("option", {value: ""}, "who are you?"),
                     ...chouette.phone_players.map((name) => h("option", {value: name}, name)));
    player.value = phone.player;
    const code = h("input", {id: "phone-code", placeholder: "your code", autocomplete: "off", size: 12, value: phone.code});
    const keep = () => { phone.player = player.value; phone.code = code.value.trim(); phone.save(); renderPhone(room.tiles.get(tile.table) || tile); };
    player.addEventListener("change", keep);
    code.addEventListener("change", keep);
    const bots = Object.keys(chouette.bots || {}).map((name) => playerLabel(chouette, name));
    box.replaceChildren(h("h2", {}, "Decide from your phone"),
      h("p", {class: "muted"}, "Your name and the code the table gave you; your decision is asked when your code shows on the table."),
      bots.length ? h("p", {class: "muted", id: "phone-bots"}, `${bots.join(", ")} ${bots.length > 1 ? "decide" : "decides"} at the table, with no code`) : "",
      h("div", {id: "phone-form", class: "actions"}, player, code), h("div", {id: "phone-ask"}), h("ul", {id: "phone-answers"}));
  }
  const ask = document.getElementById("phone-ask");
  const asked = chouette.asked;
  const mine = asked && asked.side === "team" && phone.player && asked.player === phone.player;
  if (!mine) {
    ask.dataset.ask = "";
    ask.replaceChildren(h("p", {class: "muted"}, asked ? `waiting for ${asked.code} ${asked.player}` : "no decision asked now"));
  } else if (ask.dataset.ask !== asked.ask) {  // a new decision: its buttons (kept while it stands)
    ask.dataset.ask = asked.ask;
    const message = h("span", {class: "muted", id: "phone-message"});
    const labels = {take: "take", pass: asked.kind === "turn" ? "let it be" : "pass", beaver: "beaver", double: "double"};
    ask.replaceChildren(h("p", {}, h("strong", {}, `${asked.code} ${asked.player}: `),
                          asked.kind === "turn" ? `double your cube, or let it be?` : `the box doubles your cube: ${asked.answers.join(" or ")}?`),
      h("div", {class: "actions"}, ...asked.answers.map((answer) =>
        h("button", {id: `decide-${answer}`, class: "decide", onclick: () => decide(tile.table, asked.ask, answer, message)}, labels[answer])), message));
  }
  const answers = (tile.decisions || []).filter((d) => phone.sent.has(d.id));
  document.getElementById("phone-answers").replaceChildren(...answers.map((d) =>
    h("li", {class: d.applied ? "applied" : d.outcome === null ? "muted" : "refused", "data-id": d.id},
      `${d.answer}: ${d.outcome === null ? "sent, waiting for the table" : d.outcome}`)));
}

function renderTable(doc) {
  const tile = doc.tile, state = tile.state;
  renderPhone(tile);
  const board = document.getElementById("board");
  board.replaceChildren(tileElement(tile));
  const head = document.getElementById("match");
  head.replaceChildren();
  if (doc.match) {
    head.appendChild(h("p", {}, `match ${doc.match}: ${doc.held} events held`));
    head.appendChild(h("p", {class: "downloads"}, "download: ",
      ...(state && state.chouette ? ["journal.jsonl"] : ["journal.jsonl", "match.mat", "sheet.pdf"]).map((name) =>
        [h("a", {href: `/download/${tile.table}/${doc.match}/${name}`, class: "download", "data-name": name}, name), " "]).flat()));
  }
  const flags = document.getElementById("flags");
  flags.replaceChildren(...doc.flags.slice().reverse().map((flag) => {
    const box = h("div", {class: `flagbox ${flag.status}`, id: `flag-${flag.number}`, "data-status": flag.status},
      h("strong", {}, `flag ${flag.number} · ${flag.code} ${flag.kind}`), ` game ${flag.game}, move ${flag.move} · `,
      h("span", {class: "flag-status"}, flag.status + (flag.referee ? ` (${flag.referee})` : "")),
      h("div", {}, flag.message));
    if (flag.picture) box.appendChild(h("img", {src: `/picture/${tile.table}/${doc.match}/flag-${flag.number}.png`,
                                                alt: `the board as sensed beside the board expected, flag ${flag.number}`}));
    if (doc.referee && (flag.status === "open" || flag.status === "acknowledged")) {
      const message = h("span", {class: "muted"});
      const send = (action) => () => rule(tile.table, {action, flag: flag.number}, message);
      const actions = h("div", {class: "actions"});
      if (flag.status === "open") actions.appendChild(h("button", {class: "acknowledge", onclick: send("acknowledge")}, "acknowledge"));
      if (state && (state.waiting === "correct the play" || state.waiting === "accept or correct"))
        actions.appendChild(h("button", {class: "correct", onclick: send("correct")}, "correct the play"));
      if (state && state.waiting === "accept or correct")
        actions.appendChild(h("button", {class: "accept", onclick: send("accept")}, "accept (traditional rule)"));
      actions.appendChild(message);
      box.appendChild(actions);
    }
    return box;
  }));
  if (!doc.flags.length) flags.appendChild(h("p", {class: "muted"}, "no flags in this match"));
  const penalty = document.getElementById("penalty");
  penalty.replaceChildren();
  if (doc.referee && state && state.clock && !state.over) {
    const player = h("select", {id: "penalty-player"}, h("option", {value: "white"}, `${state.players.white} (white)`),
                     h("option", {value: "black"}, `${state.players.black} (black)`));
    const seconds = h("input", {id: "penalty-seconds", type: "number", min: 1, max: 3600, value: 60, size: 4});
    const message = h("span", {class: "muted"});
    penalty.appendChild(h("div", {class: "actions"}, "time penalty: ", player, seconds, " s ",
      h("button", {id: "penalty-send", onclick: () => rule(tile.table, {action: "time_penalty", player: player.value,
                                                                        seconds: Number(seconds.value)}, message)}, "penalise"), message));
  }
  const rulings = document.getElementById("rulings");
  rulings.replaceChildren(...refereeLog(doc));
  const notation = document.getElementById("notation");
  if (state && state.chouette) {  // the club's score sheet and each member's .mat are made from the journal
    notation.replaceChildren(h("p", {class: "muted referee-only"}, "a chouette: python -m game report JOURNAL draws its " +
                               "score sheet, python -m game.chouette convert JOURNAL --out DIR each member's .mat"));
    return;
  }
  notation.replaceChildren(...doc.games.map((game) => h("div", {},
    h("h3", {}, `game ${game.number} · score ${game.score[0]}-${game.score[1]}${game.crawford ? " · Crawford" : ""}`),
    h("table", {class: "notation"}, h("tr", {}, h("th", {}, "#"), h("th", {}, state ? state.players.white : "White"),
                                              h("th", {}, state ? state.players.black : "Black")),
      ...groupRows(game.rows).map(([number, white, black]) => h("tr", {class: (white && white.flagged) || (black && black.flagged) ? "flagged" : ""},
        h("td", {}, number), h("td", {title: white ? white.note : ""}, cell(white)), h("td", {title: black ? black.note : ""}, cell(black))))),
    game.result ? h("p", {}, game.result) : "")));
}

function cell(row) {
  if (!row) return "";
  return `${row.dice ? row.dice.join("") + ": " : ""}${row.notation}${row.flagged ? " ⚑" : ""}`;
}

function groupRows(rows) {
  const lines = new Map();
  for (const row of rows) {
    const line = lines.get(row.number) || [row.number, null, null];
    if (row.player === "black") line[2] = row; else line[1] = row;
    lines.set(row.number, line);
  }
  return [...lines.values()];
}

function refereeLog(doc) {
  const rows = (doc.referee || []).map((r) => h("li", {}, `${r.referee}: ${r.action}${r.flag ? " flag " + r.flag : ""}`,
    r.player ? ` ${r.player}` : "", r.seconds ? ` ${r.seconds} s` : "", ` — ${r.outcome}`));
  const waiting = (doc.tile.rulings || []).filter((r) => r.outcome === null)
    .map((r) => h("li", {class: "muted"}, `${r.referee}: ${r.action} — sent, waiting for the table`));
  return rows.length || waiting.length ? [h("ul", {}, ...rows, ...waiting)] : [h("p", {class: "muted"}, "no rulings")];
}

// -- results --------------------------------------------------------------------------------

function renderResults(doc) {
  const standings = document.getElementById("standings");
  standings.replaceChildren(h("table", {class: "standings"},
    h("tr", {}, ...["player", "played", "won", "lost", "points for", "against"].map((t) => h("th", {}, t))),
    ...doc.standings.map((r) => h("tr", {}, h("td", {}, r.player), h("td", {}, r.played), h("td", {}, r.won),
                                     h("td", {}, r.lost), h("td", {}, r.for), h("td", {}, r.against)))));
  const matches = document.getElementById("finished");
  matches.replaceChildren(h("p", {class: "muted"}, `${doc.matches.length} finished, ${doc.playing} in play`),
    h("table", {class: "standings"},
      h("tr", {}, ...["table", "match", "white", "black", "score", "winner", ""].map((t) => h("th", {}, t))),
      ...doc.matches.map((m) => h("tr", {}, h("td", {}, m.table), h("td", {}, `${m.variant}, ${m.length ? "to " + m.length : "money"}`),
        h("td", {}, m.players.white), h("td", {}, m.players.black), h("td", {}, `${m.score.white}-${m.score.black}`),
        h("td", {}, m.winner ? m.players[m.winner] : "—"),
        h("td", {}, h("a", {href: `/download/${m.table}/${m.match}/sheet.pdf`}, "sheet"), " ",
                     h("a", {href: `/download/${m.table}/${m.match}/journal.jsonl`}, "record"))))));
  // finished matches that do not count: a referee sees why (names and scores shown as sent, as text)
  const refused = document.getElementById("unverified");
  const unverified = doc.unverified || [];
  const name = (m, side) => (m.players && typeof m.players[side] === "string" ? m.players[side] : "?");
  const score = (m) => (m.score ? `${m.score.white}-${m.score.black}` : "?");
  refused.replaceChildren(h("p", {class: "muted"}, `${unverified.length} not counted`),
    h("table", {class: "standings"},
      h("tr", {}, ...["table", "match", "white", "black", "score", "why not counted", ""].map((t) => h("th", {}, t))),
      ...unverified.map((m) => h("tr", {class: "unverified"}, h("td", {}, m.table), h("td", {}, m.match),
        h("td", {}, name(m, "white")), h("td", {}, name(m, "black")), h("td", {}, score(m)), h("td", {}, m.reason),
        h("td", {}, h("a", {href: `/download/${m.table}/${m.match}/journal.jsonl`}, "record"))))));
}

window.addEventListener("DOMContentLoaded", startPage);
