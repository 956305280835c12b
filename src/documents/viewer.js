// arbiter's game viewer: replays the games embedded in index.html (ARBITER_GAMES) move by
// move. Self-contained: no network, no libraries. boardFromMoves (Breakthrough, by its
// rules) and displayAt (the other games, from the board lines arbiter embedded per ply) are
// the pure part, checked against arbiter replay --steps in a real browser (tests/viewer.rs).
"use strict";

// Breakthrough geometry from the rules name: rows, columns, rows of pieces per side.
function breakthroughShape(rules) {
  if (rules === "long") return { rows: 5, cols: 10, start: 2 };
  if (rules === "small") return { rows: 5, cols: 5, start: 2 };
  return { rows: 8, cols: 8, start: 2 };
}

// The board after the first ply moves: an array of rows (row 0 is rank 1, P1's home),
// each an array of "0", "1" (P1) or "2" (P2). Throws on a move it cannot read.
function boardFromMoves(game, rules, moves, ply) {
  if (game !== "breakthrough") {
    throw new Error("no viewer for " + game + " yet");
  }
  const shape = breakthroughShape(rules);
  const board = [];
  for (let r = 0; r < shape.rows; r++) {
    const row = [];
    for (let c = 0; c < shape.cols; c++) {
      row.push(r < shape.start ? "1" : r >= shape.rows - shape.start ? "2" : "0");
    }
    board.push(row);
  }
  const square = (text) => {
    const at = squareOf(text);
    if (!at) throw new Error("unreadable square " + text);
    if (at[0] >= shape.rows || at[1] < 0 || at[1] >= shape.cols) {
      throw new Error("square off the board: " + text);
    }
    return at;
  };
  for (let i = 0; i < ply && i < moves.length; i++) {
    const parts = moves[i].split(/[-x]/);
    if (parts.length !== 2) throw new Error("unreadable move " + moves[i]);
    const [fr, fc] = square(parts[0]);
    const [tr, tc] = square(parts[1]);
    board[tr][tc] = board[fr][fc];
    board[fr][fc] = "0";
  }
  return board;
}

// The board as arbiter replay --steps prints it (files header, ranks 1.. down).
function boardText(board) {
  const files = board[0].map((_, c) => String.fromCharCode(97 + c));
  let text = "   " + files.join(" ") + "\n";
  board.forEach((row, r) => {
    text += String(r + 1).padStart(2, " ") + " " + row.join(" ") + "\n";
  });
  return text;
}

// A square written file letter and rank number (e2) as [row, column], or null.
function squareOf(text) {
  const m = /^([a-z])([1-9]\d*)$/.exec(text);
  return m ? [parseInt(m[2], 10) - 1, m[1].charCodeAt(0) - 97] : null;
}

// The board lines of an embedded game (not Breakthrough) after the first ply moves, as
// arbiter replay --steps prints them: the start's lines with each ply's changed lines put in.
function displayAt(g, ply) {
  const lines = g.boards.start.slice();
  for (let i = 0; i < ply && i < g.boards.plies.length; i++) {
    for (const [index, line] of g.boards.plies[i]) lines[index] = line;
  }
  return lines;
}

// What to draw at a ply: rows (top first) of a label and cell tokens, the column labels,
// and the layout ("grid" or "star": rows of different widths, centred).
function viewOf(g, ply) {
  if (g.grid) {
    // A game served by a program: its board as it renders it at every ply.
    const rows = g.grid.plies[Math.min(ply, g.grid.plies.length - 1)];
    const labels = g.grid.row_labels || [];
    return {
      rows: rows.map((cells, r) => ({ label: labels[r] || "", cells })),
      columns: g.grid.column_labels || null,
      layout: "grid",
    };
  }
  if (g.game === "breakthrough") {
    const board = boardFromMoves(g.game, g.rules, g.moves, ply);
    const rows = [];
    for (let r = board.length - 1; r >= 0; r--) rows.push({ label: String(r + 1), cells: board[r] });
    return { rows, columns: board[0].map((_, c) => String.fromCharCode(97 + c)), layout: "grid" };
  }
  const lines = displayAt(g, ply);
  const split = (line) => {
    const words = line.trim().split(/\s+/);
    return { label: words[0], cells: words.slice(1) };
  };
  if (g.game === "wights") {
    return { rows: lines.slice(1).map(split), columns: lines[0].trim().split(/\s+/), layout: "grid" };
  }
  if (g.game === "double-card") {
    return {
      rows: lines.slice(0, -1).map(split),
      columns: lines[lines.length - 1].trim().split(/\s+/),
      layout: "grid",
    };
  }
  if (g.game === "chinese-checkers") {
    return { rows: lines.slice(1).map(split), columns: null, layout: "star" };
  }
  if (g.game === "chinese-checkers-star") {
    // The star's rows as replay prints them (the status line after them left out).
    const rows = lines
      .filter((line) => /^[\s.1-6]+$/.test(line) && line.trim() !== "")
      .map((line) => ({ label: "", cells: line.trim().split(/\s+/) }));
    return { rows, columns: null, layout: "star" };
  }
  throw new Error("no viewer for " + g.game);
}

// A rendered board at a ply as arbiter replay prints it: row labels in front, column
// labels below, "." for an empty cell.
function gridText(grid, ply) {
  // A game that prints its board as text: that text, as arbiter replay shows it.
  if (typeof grid.plies[ply] === "string") return grid.plies[ply].replace(/\n+$/, "") + "\n";
  const rowLabels = grid.row_labels || [];
  const margin = rowLabels.reduce((m, l) => Math.max(m, String(l).length), 0);
  let text = "";
  grid.plies[ply].forEach((row, r) => {
    if (margin > 0) text += String(rowLabels[r] || "").padStart(margin) + " ";
    text += row.map((c) => c || ".").join(" ") + "\n";
  });
  if (grid.column_labels) {
    text += (margin > 0 ? " ".repeat(margin + 1) : "") + grid.column_labels.join(" ") + "\n";
  }
  return text;
}

// What the colours mean, per game.
const LEGENDS = {
  breakthrough: "White: P1, moving up the board; black: P2.",
  wights: "P1: the Queen (Q) and her Dragons (D); P2: the Wights (W).",
  "double-card": "Card halves: red or white, with a solid or a hollow dot.",
  "chinese-checkers": "Blue: P1, orange: P2; ringed marbles are special.",
  "chinese-checkers-star": "Marbles by seat: blue P1, orange P2, green P3, purple P4, red P5, yellow P6; grey: an empty hole.",
};

// A cell's look: its class and text (and colour, for a program's board), by game and token.
function cellLook(game, token, grid) {
  if (grid) {
    if (!token) return null;
    return { cls: "piece symbol", text: token.length <= 2 ? token : token.slice(0, 2),
      color: (grid.colors || {})[token] || "#888" };
  }
  if (game === "breakthrough") return token === "0" ? null : { cls: "piece p" + token, text: "" };
  if (game === "wights") {
    return token === "." ? null : { cls: "piece " + { Q: "queen", D: "dragon", W: "wight" }[token], text: token };
  }
  if (game === "chinese-checkers-star") {
    return token === "." ? { cls: "hole", text: "" } : { cls: "marble p" + token, text: "" };
  }
  if (game === "double-card") {
    if (token === "..") return null;
    return { cls: "half " + (token[0] === "R" ? "red" : "white") + (token[1] === "X" ? " solid" : " hollow"), text: "" };
  }
  // Chinese Checkers: 0 empty, 1/2 ordinary marbles of P1/P2, 3/4 their special marbles.
  if (token === "0") return { cls: "hole", text: "" };
  const owner = token === "1" || token === "3" ? "p1" : "p2";
  return { cls: "marble " + owner + (token === "3" || token === "4" ? " special" : ""), text: "" };
}

function startViewer() {
  const games = window.ARBITER_GAMES || [];
  const root = document.getElementById("viewer");
  if (!root) return;
  if (location.hash === "#dump") {
    // Every embedded game at every ply, for the browser test.
    const out = [];
    for (const g of games) {
      for (let ply = 0; ply <= g.moves.length; ply++) {
        const board = g.grid
          ? gridText(g.grid, ply)
          : g.game === "breakthrough"
          ? boardText(boardFromMoves(g.game, g.rules, g.moves, ply))
          : displayAt(g, ply).join("\n") + "\n";
        out.push("game " + g.id + " ply " + ply + "\n" + board);
        if (g.grid && g.grid.views) {
          g.grid.seats.forEach((seat, i) => {
            out.push("game " + g.id + " ply " + ply + " seen by " + seat + "\n" + g.grid.views[ply][i] + "\n");
          });
        }
      }
    }
    const pre = document.createElement("pre");
    pre.id = "dump";
    pre.textContent = out.join("\n");
    document.body.appendChild(pre);
  }
  const pick = root.querySelector("#viewer-game");
  const filter = root.querySelector("#viewer-filter");
  const order = root.querySelector("#viewer-order");
  const boardBox = root.querySelector("#viewer-board");
  const info = root.querySelector("#viewer-info");
  const list = root.querySelector("#viewer-moves");
  const plyInput = root.querySelector("#viewer-ply");
  const seenBy = root.querySelector("#viewer-view");
  const seenByLabel = root.querySelector("#viewer-view-label");
  let current = null;
  let ply = 0;
  let timer = null;

  function fill() {
    const want = filter.value;
    pick.innerHTML = "";
    const shown = games.filter((g) => !want || g.winner_agent === want || g.reason === want ||
      want === "matchup:" + g.matchup);
    // By length when asked (stable: games.csv order among equals).
    if (order.value === "shortest") shown.sort((a, b) => a.moves.length - b.moves.length);
    if (order.value === "longest") shown.sort((a, b) => b.moves.length - a.moves.length);
    for (const g of shown) {
      const o = document.createElement("option");
      o.value = String(g.id);
      const who = g.players ? g.players.join(", ") : g.p1 + " vs " + g.p2;
      o.textContent = "game " + g.id + ": " + who + " (" + g.result + ", " + g.moves.length + " plies)";
      pick.appendChild(o);
    }
    choose();
  }

  function choose() {
    const id = parseInt(pick.value, 10);
    current = games.find((g) => g.id === id) || null;
    ply = current ? current.moves.length : 0;
    // A game with hidden information: whose view to show (all of it by default: the
    // game is over).
    const views = current && current.grid && current.grid.views;
    const was = seenBy.value;
    seenBy.innerHTML = "";
    const everything = document.createElement("option");
    everything.value = "";
    everything.textContent = "no one: all of it";
    seenBy.appendChild(everything);
    if (views) {
      current.grid.seats.forEach((seat, i) => {
        const o = document.createElement("option");
        o.value = String(i);
        const agent = current.players ? current.players[i] : i === 0 ? current.p1 : current.p2;
        o.textContent = seat + (agent ? " (" + agent + ")" : "");
        seenBy.appendChild(o);
      });
      if ([...seenBy.options].some((o) => o.value === was)) seenBy.value = was;
    }
    seenByLabel.hidden = !views;
    draw();
  }

  function draw() {
    if (!current) {
      boardBox.textContent = "No game matches.";
      info.textContent = "";
      list.innerHTML = "";
      return;
    }
    const seat = seenBy.value;
    if (seat !== "" && current.grid && current.grid.views) {
      // What one seat observed at this ply, as it was told (its information state).
      const pre = document.createElement("pre");
      pre.className = "observation";
      pre.textContent = current.grid.views[ply][parseInt(seat, 10)];
      const legend = document.createElement("p");
      legend.className = "legend";
      legend.textContent = "What " + current.grid.seats[parseInt(seat, 10)] +
        " knew at this ply, as the game told it: the rest was hidden from it. Choose \"no one\" for the whole position.";
      boardBox.innerHTML = "";
      boardBox.appendChild(pre);
      boardBox.appendChild(legend);
      describe();
      return;
    }
    if (current.grid && typeof current.grid.plies[ply] === "string") {
      // A board the game prints as text (its rows are not a grid of symbols).
      const pre = document.createElement("pre");
      pre.className = "board-text";
      pre.textContent = current.grid.plies[ply].replace(/\n+$/, "");
      const legend = document.createElement("p");
      legend.className = "legend";
      legend.textContent = current.grid.legend || "The position as the game's rules program prints it.";
      boardBox.innerHTML = "";
      boardBox.appendChild(pre);
      boardBox.appendChild(legend);
      describe();
      return;
    }
    const view = viewOf(current, ply);
    // The last move: the cells that changed since the ply before.
    const before = ply > 0 ? viewOf(current, ply - 1) : view;
    const changed = (r, c) => before.rows[r] && before.rows[r].cells[c] !== view.rows[r].cells[c];
    const game = current.game;
    let table;
    if (view.layout === "star") {
      table = document.createElement("div");
      table.className = "star";
      view.rows.forEach((row, r) => {
        const line = document.createElement("div");
        line.className = "star-row";
        const label = document.createElement("span");
        label.className = "star-label";
        label.textContent = row.label;
        line.appendChild(label);
        row.cells.forEach((cell, c) => {
          const look = cellLook(game, cell);
          const span = document.createElement("span");
          span.className = look.cls + (changed(r, c) ? " last" : "");
          span.dataset.cell = cell;
          line.appendChild(span);
        });
        table.appendChild(line);
      });
    } else {
      table = document.createElement("table");
      table.className = "board " + game;
      view.rows.forEach((row, r) => {
        const tr = document.createElement("tr");
        const label = document.createElement("th");
        label.textContent = row.label;
        tr.appendChild(label);
        row.cells.forEach((cell, c) => {
          const td = document.createElement("td");
          const rank = parseInt(row.label, 10) - 1;
          const shade = game === "breakthrough" ? ((rank + c) % 2 ? "light" : "dark") : "plain";
          td.className = shade + (changed(r, c) ? " last" : "");
          td.dataset.cell = cell;
          const look = cellLook(game, cell, current.grid);
          if (look) {
            const piece = document.createElement("span");
            piece.className = look.cls;
            piece.textContent = look.text;
            if (look.color) {
              piece.style.background = look.color;
              // Dark letters on a light disc.
              const hex = look.color.replace("#", "");
              const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) || 0);
              if (0.299 * r + 0.587 * g + 0.114 * b > 150) {
                piece.style.color = "#222";
                piece.style.textShadow = "none";
              }
            }
            td.appendChild(piece);
          }
          tr.appendChild(td);
        });
        table.appendChild(tr);
      });
      if (view.columns) {
        const files = document.createElement("tr");
        files.appendChild(document.createElement("th"));
        for (const name of view.columns) {
          const th = document.createElement("th");
          th.textContent = name;
          files.appendChild(th);
        }
        table.appendChild(files);
      }
    }
    boardBox.innerHTML = "";
    boardBox.appendChild(table);
    const legend = document.createElement("p");
    legend.className = "legend";
    legend.textContent = current.grid
      ? current.grid.legend || "The board as the game's rules program draws it: " +
        Object.keys(current.grid.colors || {}).join(", ") + "."
      : LEGENDS[game] || "";
    boardBox.appendChild(legend);
    describe();
  }

  // The ply's line under the controls and the move list.
  function describe() {
    plyInput.value = String(ply);
    plyInput.max = String(current.moves.length);
    let text = "Ply " + ply + " of " + current.moves.length;
    const opening = current.opening || 0;
    if (ply > 0 && ply <= opening) {
      text += ": " + current.moves[ply - 1] + " of the opening (the experiment's, played before the agents)";
    } else if (ply > 0) {
      const s = current.stats[ply - 1 - opening] || {};
      text += ": " + current.moves[ply - 1] + " by " + (s.agent || "?") +
        (s.ms !== undefined && s.ms !== null ? ", " + s.ms + " ms" : "") +
        (s.expanded !== undefined && s.expanded !== null ? ", nodes expanded " + s.expanded : "") +
        (s.value !== undefined && s.value !== null ? ", root value " + s.value : "");
    }
    // Graded against perfect play (grades.csv): the moves that lost value, by the agents'
    // ply; "??" turned a win into a loss, "?" a win into a draw or a draw into a loss.
    const errors = new Map((current.errors || []).map(([p, verdict]) => [p + opening, verdict]));
    const LOST = {
      "win-to-loss": "turned a win into a loss",
      "win-to-draw": "turned a win into a draw",
      "draw-to-loss": "turned a draw into a loss",
    };
    if (ply > 0 && errors.has(ply)) {
      text += " (" + (errors.get(ply) === "win-to-loss" ? "??" : "?") + " " +
        LOST[errors.get(ply)] + ", graded against perfect play)";
    }
    if (ply === 0 && errors.size > 0) {
      text += ": the first move that lost value is ply " + Math.min(...errors.keys()) +
        " (marked ? or ??, graded against perfect play)";
    }
    if (ply === current.moves.length) {
      text += ". " + current.result + " (" + current.reason + ").";
    }
    info.textContent = text;
    list.innerHTML = "";
    current.moves.forEach((m, i) => {
      const li = document.createElement("li");
      const lost = errors.get(i + 1);
      li.textContent = (i + 1) + ". " + m + (i < opening ? " (opening)" : "") +
        (lost ? (lost === "win-to-loss" ? "??" : "?") : "");
      // A long move (a card game's deal) is cut short in the list: all of it on hover.
      if (m.length > 24) li.title = m;
      if (lost) {
        li.classList.add("error");
        li.title = LOST[lost] + " (graded against perfect play)";
      }
      if (i === ply - 1) li.classList.add("now");
      li.addEventListener("click", () => go(i + 1));
      list.appendChild(li);
    });
  }

  function go(target) {
    if (!current) return;
    ply = Math.max(0, Math.min(current.moves.length, target));
    draw();
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      return;
    }
    if (current && ply === current.moves.length) ply = 0;
    timer = setInterval(() => {
      if (!current || ply >= current.moves.length) {
        clearInterval(timer);
        timer = null;
        return;
      }
      go(ply + 1);
    }, 500);
  }

  // Filters: a matchup, a winner or a reason.
  const matchups = new Map();
  const winners = new Set();
  for (const g of games) {
    // Labelled by its first game, in which the first-listed agent plays P1.
    if (g.matchup !== "" && !matchups.has(g.matchup)) {
      matchups.set(g.matchup, g.players ? g.players.join(", ") : g.p1 + " vs " + g.p2);
    }
    winners.add(g.winner_agent);
    winners.add(g.reason);
  }
  const option = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    filter.appendChild(o);
  };
  if (matchups.size > 1) {
    const what = games.some((g) => g.players) ? "table " : "matchup ";
    for (const [m, label] of matchups) option("matchup:" + m, what + m + ": " + label);
  }
  for (const w of [...winners].filter((w) => w).sort()) option(w, w);
  filter.addEventListener("change", fill);
  order.addEventListener("change", fill);
  pick.addEventListener("change", choose);
  seenBy.addEventListener("change", draw);
  root.querySelector("#viewer-start").addEventListener("click", () => go(0));
  root.querySelector("#viewer-back").addEventListener("click", () => go(ply - 1));
  root.querySelector("#viewer-forward").addEventListener("click", () => go(ply + 1));
  root.querySelector("#viewer-end").addEventListener("click", () => go(Infinity));
  root.querySelector("#viewer-play").addEventListener("click", play);
  plyInput.addEventListener("change", () => go(parseInt(plyInput.value, 10) || 0));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") go(ply - 1);
    if (e.key === "ArrowRight") go(ply + 1);
    if (e.key === "Home") go(0);
    if (e.key === "End") go(Infinity);
  });
  fill();
}

document.addEventListener("DOMContentLoaded", startViewer);
