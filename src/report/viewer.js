// arbiter's game viewer: replays the games embedded in index.html (ARBITER_GAMES) move by
// move. Self-contained: no network, no libraries. boardFromMoves is the pure part, checked
// against arbiter replay --steps in a real browser (tests/viewer.rs).
"use strict";

// Breakthrough geometry from the rules name: rows, columns, rows of pieces per side.
function breakthroughShape(rules) {
  return rules === "long" ? { rows: 5, cols: 10, start: 2 } : { rows: 8, cols: 8, start: 2 };
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

function startViewer() {
  const games = window.ARBITER_GAMES || [];
  const root = document.getElementById("viewer");
  if (!root) return;
  if (location.hash === "#dump") {
    // Every embedded game at every ply, for the browser test.
    const out = [];
    for (const g of games) {
      for (let ply = 0; ply <= g.moves.length; ply++) {
        out.push("game " + g.id + " ply " + ply + "\n" + boardText(boardFromMoves(g.game, g.rules, g.moves, ply)));
      }
    }
    const pre = document.createElement("pre");
    pre.id = "dump";
    pre.textContent = out.join("\n");
    document.body.appendChild(pre);
  }
  const pick = root.querySelector("#viewer-game");
  const filter = root.querySelector("#viewer-filter");
  const boardBox = root.querySelector("#viewer-board");
  const info = root.querySelector("#viewer-info");
  const list = root.querySelector("#viewer-moves");
  const plyInput = root.querySelector("#viewer-ply");
  let current = null;
  let ply = 0;
  let timer = null;

  function fill() {
    const want = filter.value;
    pick.innerHTML = "";
    for (const g of games) {
      if (want && g.winner_agent !== want && g.reason !== want) continue;
      const o = document.createElement("option");
      o.value = String(g.id);
      o.textContent = "game " + g.id + ": " + g.p1 + " vs " + g.p2 + " (" + g.result + ", " + g.moves.length + " plies)";
      pick.appendChild(o);
    }
    choose();
  }

  function choose() {
    const id = parseInt(pick.value, 10);
    current = games.find((g) => g.id === id) || null;
    ply = current ? current.moves.length : 0;
    draw();
  }

  function draw() {
    if (!current) {
      boardBox.textContent = "No game matches.";
      info.textContent = "";
      list.innerHTML = "";
      return;
    }
    const board = boardFromMoves(current.game, current.rules, current.moves, ply);
    const last = ply > 0 ? current.moves[ply - 1].split(/[-x]/).map(squareOf) : [];
    const table = document.createElement("table");
    table.className = "board";
    for (let r = board.length - 1; r >= 0; r--) {
      const tr = document.createElement("tr");
      const label = document.createElement("th");
      label.textContent = String(r + 1);
      tr.appendChild(label);
      board[r].forEach((cell, c) => {
        const td = document.createElement("td");
        td.className = ((r + c) % 2 ? "light" : "dark") +
          (last.some((s) => s && s[0] === r && s[1] === c) ? " last" : "");
        td.dataset.cell = cell;
        if (cell !== "0") {
          const piece = document.createElement("span");
          piece.className = "piece p" + cell;
          td.appendChild(piece);
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    }
    const files = document.createElement("tr");
    files.appendChild(document.createElement("th"));
    board[0].forEach((_, c) => {
      const th = document.createElement("th");
      th.textContent = String.fromCharCode(97 + c);
      files.appendChild(th);
    });
    table.appendChild(files);
    boardBox.innerHTML = "";
    boardBox.appendChild(table);
    plyInput.value = String(ply);
    plyInput.max = String(current.moves.length);
    let text = "Ply " + ply + " of " + current.moves.length;
    if (ply > 0) {
      const s = current.stats[ply - 1] || {};
      text += ": " + current.moves[ply - 1] + " by " + (s.agent || "?") +
        (s.ms !== undefined && s.ms !== null ? ", " + s.ms + " ms" : "") +
        (s.expanded !== undefined && s.expanded !== null ? ", nodes expanded " + s.expanded : "") +
        (s.value !== undefined && s.value !== null ? ", root value " + s.value : "");
    }
    if (ply === current.moves.length) {
      text += ". " + current.result + " (" + current.reason + ").";
    }
    info.textContent = text;
    list.innerHTML = "";
    current.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.textContent = (i + 1) + ". " + m;
      if (i === ply - 1) li.className = "now";
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

  const winners = new Set();
  for (const g of games) {
    winners.add(g.winner_agent);
    winners.add(g.reason);
  }
  for (const w of [...winners].filter((w) => w).sort()) {
    const o = document.createElement("option");
    o.value = w;
    o.textContent = w;
    filter.appendChild(o);
  }
  filter.addEventListener("change", fill);
  pick.addEventListener("change", choose);
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
