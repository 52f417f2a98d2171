// agraph's HTML view (renderers/html.py): pan and zoom, details, highlighting, search and the
// timeline replay over the SVG that Graphviz drew. No library; every text a program wrote is
// put in the page with textContent, never as markup.
(function () {
  "use strict";
  var views = JSON.parse(document.getElementById("agraph-data").textContent);
  var figures = Array.prototype.slice.call(document.querySelectorAll(".figure"));
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".tab"));
  var canvas = document.getElementById("canvas");
  var details = document.getElementById("details");
  var slider = document.getElementById("slider");
  var statusLine = document.getElementById("status");
  var search = document.getElementById("search");
  var ROLE_TEXT = {leaf: "leaf (requires grad)", no_grad: "requires no grad",
    intermediate: "computed (non-leaf)", retained: "non-leaf with retain_grad()",
    root: "backward() started here", derivative: "made by create_graph=True",
    grad_seed: "gradient fed into backward", anomaly: "NaN or infinity", op: "op",
    broadcast: "gradient summed to the input's shape", saved: "saved for backward",
    freed: "saved, freed by backward", note: "note", path: "on a path explained"};
  var GRAD_LINE = /^(grad_output = |grad = |grad \[)/;
  var prepared = [];
  var state = null;

  function modelId(svgId, nodes) {
    if (nodes[svgId]) { return svgId; }
    var original = svgId.replace(/_(use|from)\d+$/, "");  // a copy drawn beside a far user
    return nodes[original] ? original : null;
  }

  function prepare(index) {
    var data = views[index];
    var svg = figures[index].querySelector("svg");
    var nodes = {};
    data.nodes.forEach(function (node) { nodes[node.id] = node; });
    var elements = {};
    Array.prototype.forEach.call(svg.querySelectorAll("g.node"), function (g) {
      var title = g.querySelector("title");
      var id = title && modelId(title.textContent, nodes);
      if (!id) { return; }
      g.setAttribute("data-node", id);
      (elements[id] = elements[id] || []).push(g);
      Array.prototype.forEach.call(g.querySelectorAll("text"), function (text) {
        text.setAttribute("data-text", text.textContent);
      });
    });
    var edgeElements = [];
    Array.prototype.forEach.call(svg.querySelectorAll("g.edge"), function (g) {
      var title = g.querySelector("title");
      var ends = title ? title.textContent.split("->") : [];
      var src = ends.length === 2 && modelId(ends[0], nodes);
      var dst = ends.length === 2 && modelId(ends[1], nodes);
      if (src && dst) { edgeElements.push({g: g, src: src, dst: dst}); }
    });
    var parents = {}, children = {};
    data.edges.forEach(function (edge) {
      (parents[edge.dst] = parents[edge.dst] || []).push(edge.src);
      (children[edge.src] = children[edge.src] || []).push(edge.dst);
    });
    var madeAt = {};  // node id -> index of the forward event that made it
    var events = data.timeline || [];
    events.forEach(function (event, position) {
      if (event.phase === "forward") {
        event.nodes.forEach(function (id) { if (!(id in madeAt)) { madeAt[id] = position; } });
      }
    });
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    var box = svg.viewBox.baseVal;
    return {index: index, data: data, svg: svg, nodes: nodes, elements: elements,
            edges: edgeElements, parents: parents, children: children, events: events,
            madeAt: madeAt, home: [box.x, box.y, box.width, box.height],
            position: events.length, selected: null};
  }

  function show(index) {
    if (!prepared[index]) { prepared[index] = prepare(index); }
    state = prepared[index];
    figures.forEach(function (figure, i) { figure.hidden = i !== index; });
    tabs.forEach(function (tab, i) { tab.classList.toggle("active", i === index); });
    slider.max = String(state.events.length);
    moveTo(state.position);
    if (state.selected) {
      describe(state.selected);
    } else {
      details.textContent = "";
      details.appendChild(element("p", "Click a node to see its details.", "hint"));
    }
  }

  // --- pan and zoom: the SVG's viewBox ------------------------------------------------------
  function setBox(x, y, w, h) { state.svg.setAttribute("viewBox", [x, y, w, h].join(" ")); }
  function fit() { setBox.apply(null, state.home); }
  function svgPoint(clientX, clientY) {
    var matrix = state.svg.getScreenCTM();
    var point = state.svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    return matrix ? point.matrixTransform(matrix.inverse()) : point;
  }
  canvas.addEventListener("wheel", function (event) {
    event.preventDefault();
    var box = state.svg.viewBox.baseVal;
    var factor = Math.exp(Math.max(-100, Math.min(100, event.deltaY)) * 0.002);
    var at = svgPoint(event.clientX, event.clientY);
    setBox(at.x - (at.x - box.x) * factor, at.y - (at.y - box.y) * factor,
           box.width * factor, box.height * factor);
  }, {passive: false});
  var drag = null;
  canvas.addEventListener("pointerdown", function (event) {
    drag = {x: event.clientX, y: event.clientY, moved: false, start: svgPoint(event.clientX, event.clientY)};
  });
  window.addEventListener("pointermove", function (event) {
    if (!drag) { return; }
    if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 4) {
      drag.moved = true;
      canvas.classList.add("panning");
    }
    if (drag.moved) {
      var box = state.svg.viewBox.baseVal;
      var at = svgPoint(event.clientX, event.clientY);
      setBox(box.x - (at.x - drag.start.x), box.y - (at.y - drag.start.y), box.width, box.height);
    }
  });
  window.addEventListener("pointerup", function () {
    canvas.classList.remove("panning");
    setTimeout(function () { drag = null; }, 0);
  });
  function centerOn(id) {
    var g = (state.elements[id] || [])[0];
    if (!g) { return; }
    var bounds = g.getBBox();
    var matrix = g.getCTM(), root = state.svg.getCTM();
    var box = state.svg.viewBox.baseVal;
    var point = state.svg.createSVGPoint();
    point.x = bounds.x + bounds.width / 2;
    point.y = bounds.y + bounds.height / 2;
    if (matrix && root) { point = point.matrixTransform(root.inverse().multiply(matrix)); }
    setBox(point.x - box.width / 2, point.y - box.height / 2, box.width, box.height);
  }

  // --- hover: what a node depends on and what depends on it ---------------------------------
  function walk(start, links) {
    var seen = {}, stack = [start];
    while (stack.length) {
      var id = stack.pop();
      (links[id] || []).forEach(function (next) {
        if (!seen[next]) { seen[next] = true; stack.push(next); }
      });
    }
    return seen;
  }
  function highlight(id) {
    var up = walk(id, state.parents), down = walk(id, state.children);
    Object.keys(state.elements).forEach(function (key) {
      state.elements[key].forEach(function (g) {
        g.classList.toggle("related", key === id || !!up[key] || !!down[key]);
        g.classList.toggle("ancestor", !!up[key]);
        g.classList.toggle("descendant", !!down[key]);
      });
    });
    state.edges.forEach(function (edge) {
      var inside = (up[edge.src] || edge.src === id) && (up[edge.dst] || edge.dst === id);
      var below = (down[edge.src] || edge.src === id) && (down[edge.dst] || edge.dst === id);
      edge.g.classList.toggle("related", !!(inside || below));
    });
    state.svg.classList.add("dim");
  }
  function unhighlight() {
    state.svg.classList.remove("dim");
    Array.prototype.forEach.call(state.svg.querySelectorAll(".related, .ancestor, .descendant"),
      function (g) { g.classList.remove("related", "ancestor", "descendant"); });
  }
  figures.forEach(function (figure) {
    figure.addEventListener("mouseover", function (event) {
      var g = event.target.closest && event.target.closest("g.node[data-node]");
      if (g) { highlight(g.getAttribute("data-node")); }
    });
    figure.addEventListener("mouseout", function (event) {
      var g = event.target.closest && event.target.closest("g.node[data-node]");
      if (g) { unhighlight(); }
    });
    figure.addEventListener("click", function (event) {
      var g = event.target.closest && event.target.closest("g.node[data-node]");
      if (g && !(drag && drag.moved)) { select(g.getAttribute("data-node")); }
    });
  });

  // --- the timeline ----------------------------------------------------------------------
  function gradAt(id, position) {
    var grad = null, history = [];
    for (var i = 0; i < position; i++) {
      var event = state.events[i];
      if (event.phase === "backward" && event.node === id) {
        grad = event.grad;
        history.push(event);
      }
    }
    return {grad: grad, history: history};
  }
  function moveTo(position) {
    position = Math.max(0, Math.min(state.events.length, position));
    state.position = position;
    slider.value = String(position);
    var end = position === state.events.length;
    var future = {};
    Object.keys(state.madeAt).forEach(function (id) {
      if (!end && state.madeAt[id] >= position) { future[id] = true; }
    });
    var visited = {}, current = null;
    for (var i = 0; i < position; i++) {
      if (state.events[i].phase === "backward") { visited[state.events[i].node] = true; }
    }
    var last = position > 0 ? state.events[position - 1] : null;
    if (last && last.phase === "backward" && !end) { current = last.node; }
    Object.keys(state.elements).forEach(function (id) {
      var grad = end ? null : gradAt(id, position).grad;
      state.elements[id].forEach(function (g) {
        g.classList.toggle("future", !!future[id]);
        g.classList.toggle("visited", !end && !!visited[id]);
        g.classList.toggle("current", id === current);
        Array.prototype.forEach.call(g.querySelectorAll("text"), function (text) {
          var original = text.getAttribute("data-text") || "";
          var match = GRAD_LINE.exec(original);
          if (!match || end) { text.textContent = original; return; }
          var prefix = match[1] === "grad [" ? "grad = " : match[1];
          text.textContent = grad === null ? prefix.replace(" = ", ": ") + "not yet" : prefix + grad;
        });
      });
    });
    state.edges.forEach(function (edge) {
      edge.g.classList.toggle("future", !!(future[edge.src] || future[edge.dst]));
    });
    statusLine.textContent = describeEvent(position);
    if (state.selected) { describe(state.selected); }
  }
  function nodeName(id) {
    var node = state.nodes[id];
    return node ? (node.attrs && node.attrs.name) || node.label[0] : id;
  }
  function describeEvent(position) {
    var total = state.events.length;
    if (total === 0) { return "no timeline for this view"; }
    if (position === 0) { return "0/" + total + ": before the program ran"; }
    var event = state.events[position - 1];
    var head = position + "/" + total + (position === total ? " (end)" : "") + ": ";
    if (event.phase === "forward") {
      return head + "forward, line " + event.line + ": " + (state.data.source || {})[event.line];
    }
    return head + "backward pass " + event.pass + ", " + nodeName(event.node) + ": " +
      (event.grad === null ? "no gradient" : "grad = " + event.grad);
  }
  slider.addEventListener("input", function () { moveTo(Number(slider.value)); });
  function step(delta) { moveTo(state.position + delta); }
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("first").addEventListener("click", function () { moveTo(0); });
  document.getElementById("last").addEventListener("click", function () {
    moveTo(state.events.length);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target === search || event.target === slider) { return; }  // their own keys
    var moves = {ArrowLeft: -1, ArrowRight: 1};
    if (event.key in moves) { event.preventDefault(); step(moves[event.key]); }
    if (event.key === "Home") { moveTo(0); }
    if (event.key === "End") { moveTo(state.events.length); }
  });

  // --- details ---------------------------------------------------------------------------
  function element(tag, text, className) {
    var made = document.createElement(tag);
    if (text !== undefined && text !== null) { made.textContent = String(text); }
    if (className) { made.className = className; }
    return made;
  }
  function producer(id) {
    var sources = (state.parents[id] || []).map(function (src) { return state.nodes[src]; });
    return sources.filter(function (node) { return node && node.kind === "op"; })[0] || null;
  }
  function select(id) {
    state.selected = id;
    Array.prototype.forEach.call(state.svg.querySelectorAll("g.node.selected"),
      function (g) { g.classList.remove("selected"); });
    (state.elements[id] || []).forEach(function (g) { g.classList.add("selected"); });
    describe(id);
  }
  function describe(id) {
    var node = id && state.nodes[id];
    if (!node) { return; }
    var attrs = node.attrs || {};
    var op = node.kind === "op" ? node : producer(id);
    var opAttrs = op ? op.attrs || {} : {};
    var rows = [
      ["name", attrs.name || (node.kind === "op" ? null : node.label[0])],
      ["kind", node.kind], ["role", ROLE_TEXT[node.role] || node.role],
      ["op", opAttrs.op], ["grad_fn", attrs.grad_fn || opAttrs.grad_fn || null],
      ["shape", attrs.shape ? "[" + attrs.shape.join(", ") + "]" : null],
      ["dtype", attrs.dtype], ["requires_grad", attrs.requires_grad],
      ["is_leaf", attrs.is_leaf], ["value", attrs.value],
      ["value when used", attrs.value_when_used]];
    var timed = gradAt(id, state.position);
    var final = attrs.grad !== undefined ? attrs.grad : null;
    if (state.position === state.events.length) {
      rows.push(["grad", final !== null ? final : (attrs.has_grad ? "(too big to show)" : null)]);
    } else {
      rows.push(["grad now", timed.grad === null ? "not yet" : timed.grad]);
      rows.push(["grad at the end", final]);
    }
    details.textContent = "";
    details.appendChild(element("h2", node.label[0]));
    var table = element("table");
    rows.forEach(function (row) {
      if (row[1] === undefined || row[1] === null) { return; }
      var tr = element("tr");
      tr.appendChild(element("th", row[0]));
      var cell = element("td");
      cell.appendChild(element("code", row[1]));
      tr.appendChild(cell);
      table.appendChild(tr);
    });
    details.appendChild(table);
    var saved = attrs.saved || opAttrs.saved || [];
    if (saved.length) {
      details.appendChild(element("h3", "saved for backward"));
      var list = element("ul");
      saved.forEach(function (item) {
        list.appendChild(element("li", item.slot + ": [" + item.shape.join(", ") + "] " +
          item.dtype + ", " + item.bytes + " bytes" + (item.freed ? " (freed)" : " (kept)")));
      });
      details.appendChild(list);
    }
    if (timed.history.length) {
      details.appendChild(element("h3", "gradient so far"));
      var steps = element("ul");
      timed.history.forEach(function (event) {
        steps.appendChild(element("li", "pass " + event.pass + ": " + event.grad));
      });
      details.appendChild(steps);
    }
    var line = attrs.line || opAttrs.line;
    if (line) {
      details.appendChild(element("h3", "source, line " + line));
      details.appendChild(element("pre", (state.data.source || {})[line] || ""));
    }
  }

  // --- search ----------------------------------------------------------------------------
  var found = [];
  function find(query, next) {
    Array.prototype.forEach.call(state.svg.querySelectorAll("g.node.found"),
      function (g) { g.classList.remove("found"); });
    query = query.trim().toLowerCase();
    if (!query) { found = []; return; }
    if (!next || !found.length) {
      var ids = Object.keys(state.elements).filter(function (id) {
        return (state.nodes[id].label[0] || "").toLowerCase().indexOf(query) >= 0;
      });
      ids.sort(function (a, b) {
        var exactA = state.nodes[a].label[0].toLowerCase() === query ? 0 : 1;
        var exactB = state.nodes[b].label[0].toLowerCase() === query ? 0 : 1;
        return exactA - exactB;
      });
      found = ids;
    } else {
      found.push(found.shift());
    }
    if (!found.length) { return; }
    (state.elements[found[0]] || []).forEach(function (g) { g.classList.add("found"); });
    select(found[0]);
    centerOn(found[0]);
  }
  search.addEventListener("input", function () { find(search.value, false); });
  search.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { find(search.value, true); }
  });

  document.getElementById("fit").addEventListener("click", fit);
  tabs.forEach(function (tab, index) { tab.addEventListener("click", function () { show(index); }); });
  show(0);
}());
