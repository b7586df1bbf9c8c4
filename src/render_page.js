// gloam replay page: steps through the frames of one saved game (src/render.rs writes the
// data; docs/render.md describes the page). No network, no library.
"use strict";
(function () {
  var errors = document.getElementById("errors");
  function report(message) {
    errors.textContent += message + "\n";
    document.body.setAttribute("data-errors", "yes");
  }
  window.addEventListener("error", function (event) {
    report("error: " + event.message);
  });
  try {
    var data = JSON.parse(document.getElementById("gloam-data").textContent);
    var frames = data.frames;
    var svg = document.getElementById("board-svg");
    var paper = document.getElementById("paper");
    var board = document.getElementById("board");
    var legend = document.getElementById("legend");
    var pieces = document.getElementById("pieces");
    var slider = document.getElementById("slider");
    var label = document.getElementById("label");
    var decision = document.getElementById("decision");
    var narration = document.getElementById("narration");
    var shownBoard = -1;
    var shownLegend = -1;
    var current = 0;

    function text(tag, content, className) {
      var element = document.createElement(tag);
      element.textContent = content;
      if (className) {
        element.className = className;
      }
      return element;
    }

    function show(index) {
      if (isNaN(index)) {
        index = 0;
      }
      index = Math.max(0, Math.min(frames.length - 1, index));
      current = index;
      var frame = frames[index];
      var width = frame.size[0];
      var height = frame.size[1];
      svg.setAttribute("viewBox", "0 0 " + width + " " + height);
      svg.setAttribute("width", width);
      svg.setAttribute("height", height);
      paper.setAttribute("width", width);
      paper.setAttribute("height", height);
      if (frame.board !== shownBoard) {
        board.innerHTML = data.boards[frame.board];
        shownBoard = frame.board;
      }
      if (frame.legend !== shownLegend) {
        legend.innerHTML = data.legends[frame.legend];
        shownLegend = frame.legend;
      }
      // A frame's pieces are items (one fighter, one token, one roster line) shared
      // between frames: stored once, listed by number.
      pieces.innerHTML = frame.pieces.map(function (item) { return data.items[item]; }).join("\n");
      slider.value = String(index);
      label.textContent = "step " + index + " of " + (frames.length - 1);
      decision.replaceChildren();
      if (frame.decision) {
        decision.appendChild(text("h2", "Decision " + (index + 1)));
        decision.appendChild(text("p", frame.decision.player + ": " + frame.decision.prompt, "prompt"));
        decision.appendChild(text("p", "answer: " + frame.decision.answer, "answer"));
      } else {
        decision.appendChild(text("h2", "The end of the record"));
      }
      narration.replaceChildren();
      frame.narration.forEach(function (line) {
        narration.appendChild(text("li", line));
      });
      if (frame.narration.length === 0) {
        narration.appendChild(text("li", "(nothing new)", "quiet"));
      }
      document.body.setAttribute("data-step", String(index));
      var hash = "#step=" + index;
      if (window.location.hash !== hash) {
        try {
          window.history.replaceState(null, "", hash);
        } catch (ignored) {
          // A page opened from a file may refuse; the step is shown all the same.
        }
      }
    }

    function fromHash() {
      var match = /step=(\d+)/.exec(window.location.hash);
      return match ? parseInt(match[1], 10) : 0;
    }

    document.getElementById("first").addEventListener("click", function () { show(0); });
    document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
    document.getElementById("next").addEventListener("click", function () { show(current + 1); });
    document.getElementById("last").addEventListener("click", function () { show(frames.length - 1); });
    slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
    window.addEventListener("hashchange", function () { show(fromHash()); });
    document.addEventListener("keydown", function (event) {
      if (event.target === slider) {
        return;
      }
      var moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
      if (event.key in moves) {
        show(current + moves[event.key]);
      } else if (event.key === "Home") {
        show(0);
      } else if (event.key === "End") {
        show(frames.length - 1);
      } else {
        return;
      }
      event.preventDefault();
    });
    show(fromHash());
    document.body.setAttribute("data-ready", "yes");
  } catch (error) {
    report("error: " + error);
  }
})();
