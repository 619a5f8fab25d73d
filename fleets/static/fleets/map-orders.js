// Orders by clicking the naval map (issue 20 §2). The desk's map is drawn inline (htmx fetches
// the same SVG the <img> shows without JavaScript), and this script turns clicks into the
// fleet's own order form, submitted as the form's button would: the order goes through the
// same form, service and engine checks, and the card's answer (the order given, or the engine's
// refusal in words) is what the status line then reads. Nothing is decided here that the forms
// do not offer: the choices are the engine's `legal_orders` (fleets/map_orders.py).
//
//  - a click on one of the desk's fleets chooses it; the seas and ports it may reach are ringed;
//  - a click on a ringed sea sails there by the shortest route (M2); a click on a sea next to
//    where the route ends, while points are left, sails on through it (a route of one's own);
//  - a click on a ringed port enters it (M3) or blockades it (B1), as the engine allows;
//  - "Hold here instead" gives a hold; "Support …" supports that side in a battle next to the
//    fleet (S1: battles are not known before the turn resolves, so the side is what is chosen);
//    "Join …" joins a fleet in the same place (W5); "Done" (or Escape, or the fleet again) lets
//    it go.
(function () {
  "use strict";

  var choices = null; // the page's map-choices document
  var chosen = null; // {id, route: [sea, ...]}

  function setup() {
    var data = document.getElementById("map-choices");
    var map = document.getElementById("naval-map");
    if (!data || !map) return;
    choices = JSON.parse(data.textContent);
    document.getElementById("map-panel").hidden = false;
    map.addEventListener("click", onClick);
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && chosen) release();
    });
    document.getElementById("map-actions").addEventListener("click", function (e) {
      var what = e.target.getAttribute("data-map");
      if (what === "hold") give({type: "hold"});
      if (what === "support") give({type: "support", support: e.target.getAttribute("data-id")});
      if (what === "merge") give({type: "merge", merge_into: e.target.getAttribute("data-id")});
      if (what === "done") release();
    });
    document.body.addEventListener("htmx:afterSwap", afterSwap);
    load(map);
  }

  // The inline SVG, fetched once here and again by htmx whenever an order changed.
  function load(map) {
    fetch(map.getAttribute("data-map-url"), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (svg) { map.innerHTML = svg; decorate(); })
      .catch(function () { /* the <img> stays: the forms still give every order */ });
  }

  function afterSwap(e) {
    var target = e.detail.target;
    if (target.id === "naval-map") { decorate(); return; }
    if (!chosen || target.id !== chosen.id) return;
    var card = document.getElementById(chosen.id); // the new card (an outerHTML swap's
    // event names the one it replaced)
    var refused = card.querySelector(".errorlist");
    if (refused) {
      say("Not given: " + refused.textContent.trim(), true);
    } else {
      var order = card.querySelector("p strong");
      say(chosen.id + ": " + (order ? order.textContent : "holds") + ". " + hint(), false);
    }
  }

  function fleetOf(id) { return choices.fleets[id]; }
  function name(id) { return choices.names[id] || id; }
  function svg() { return document.querySelector("#naval-map svg"); }

  // The classes that show what may be clicked: own fleets, the chosen fleet's reach, its route.
  function decorate() {
    var root = svg();
    if (!root) return;
    root.querySelectorAll(".fleet[data-fleet]").forEach(function (g) {
      g.classList.toggle("own", !!fleetOf(g.getAttribute("data-fleet")));
      g.classList.toggle("chosen", !!chosen && g.getAttribute("data-fleet") === chosen.id);
    });
    document.getElementById("naval-map").classList.toggle("choosing", !!chosen);
    var fleet = chosen && fleetOf(chosen.id);
    var route = chosen ? chosen.route : [];
    var next = fleet ? onward(fleet, route) : [];
    root.querySelectorAll(".province[data-province]").forEach(function (g) {
      var id = g.getAttribute("data-province");
      g.classList.toggle("reach", !!fleet && id in fleet.moves);
      g.classList.toggle("next", next.indexOf(id) >= 0);
      g.classList.toggle("route", route.indexOf(id) >= 0);
    });
    root.querySelectorAll(".port[data-port]").forEach(function (g) {
      var id = g.getAttribute("data-port");
      g.classList.toggle("reach", !!fleet && (id in fleet.enter_port || id in fleet.blockade));
    });
  }

  // The seas a route may go on to: next to its end, while movement points are left (M1, M2).
  function onward(fleet, route) {
    if (!route.length || route.length >= fleet.points) return [];
    return (choices.seas[route[route.length - 1]] || []).filter(function (sea) {
      return sea in fleet.moves;
    });
  }

  function onClick(e) {
    var fleetEl = e.target.closest(".fleet[data-fleet]");
    var portEl = under(e, ".port[data-port]");
    var seaEl = under(e, ".province[data-province]");
    if (fleetEl && fleetOf(fleetEl.getAttribute("data-fleet"))) {
      var id = fleetEl.getAttribute("data-fleet");
      if (chosen && chosen.id === id) release(); else choose(id);
    } else if (!chosen) {
      say("Click one of your fleets first: its seas and ports are then ringed.", false);
    } else if (portEl) {
      port(portEl.getAttribute("data-port"));
    } else if (seaEl) {
      sea(seaEl.getAttribute("data-province"));
    }
  }

  // What was clicked, or drawn under it: a click on another flag's fleet badge is a click on
  // its sea (a player sails to meet it).
  function under(e, selector) {
    var hit = e.target.closest(selector);
    if (hit) return hit;
    var stack = document.elementsFromPoint(e.clientX, e.clientY);
    for (var i = 0; i < stack.length; i++) {
      hit = stack[i].closest(selector);
      if (hit) return hit;
    }
    return null;
  }

  function choose(id) {
    var fleet = fleetOf(id);
    chosen = {id: id, route: []};
    document.getElementById("map-actions").hidden = false;
    more(fleet);
    if (fleet.adrift) {
      say(id + " is adrift: it can only hold this turn (X25).", false);
    } else {
      say(id + " at " + name(fleet.at) + ": " + plural(fleet.points, "movement point") +
          " this turn. " + hint(), false);
    }
    decorate();
  }

  // The buttons for what is not a place on the map: a side to support, a fleet to join.
  function more(fleet) {
    var box = document.getElementById("map-more");
    box.textContent = "";
    (fleet.support || []).forEach(function (side) {
      box.appendChild(button("support", side, "Support " + name(side)));
    });
    (fleet.merge_into || []).forEach(function (other) {
      box.appendChild(button("merge", other, "Join " + other));
    });
  }

  function button(what, id, words) {
    var b = document.createElement("button");
    b.type = "button";
    b.setAttribute("data-map", what);
    b.setAttribute("data-id", id);
    b.textContent = words;
    var pair = document.createDocumentFragment(); // a space between buttons, as in the markup
    pair.appendChild(b);
    pair.appendChild(document.createTextNode(" "));
    return pair;
  }

  function release() {
    chosen = null;
    document.getElementById("map-actions").hidden = true;
    say("Click one of your fleets on the map to order it.", false);
    decorate();
  }

  function hint() {
    return "Click a ringed sea to sail there, then a sea next to it to sail on through it; " +
      "click a ringed port to enter or blockade it.";
  }

  function sea(id) {
    var fleet = fleetOf(chosen.id);
    if (!(id in fleet.moves)) {
      say(name(id) + " is out of " + chosen.id + "'s reach this turn (" +
          plural(fleet.points, "movement point") + ").", true);
      return;
    }
    var route = onward(fleet, chosen.route).indexOf(id) >= 0
      ? chosen.route.concat([id])
      : fleet.moves[id].slice();
    chosen.route = route;
    give({type: "move", destination: id, path: route.join(",")});
  }

  function port(id) {
    var fleet = fleetOf(chosen.id);
    if (id in fleet.enter_port) {
      give({type: "enter_port", port: id});
    } else if (id in fleet.blockade) {
      give({type: "blockade", blockade_port: id});
    } else {
      say(chosen.id + " can neither enter nor blockade " + name(id) + " this turn.", true);
    }
  }

  // The order, written into the fleet's own form and sent as its button sends it (htmx).
  function give(values) {
    var form = document.querySelector("#" + CSS.escape(chosen.id) + " form[data-order]");
    if (!form) return;
    var reasonBox = document.getElementById("map-reason");
    if (reasonBox) {
      if (!reasonBox.value.trim()) {
        say("Say why first, in the reason box above the map: it goes to the audit log.", true);
        reasonBox.focus();
        return;
      }
      var reason = form.querySelector("input[name='reason']");
      if (reason) reason.value = reasonBox.value;
    }
    var prefix = chosen.id + "-";
    if (values.type !== "move") values.path = "";
    Object.keys(values).forEach(function (field) {
      var input = form.querySelector("[name='" + prefix + field + "']");
      if (input) input.value = values[field];
    });
    var kind = form.querySelector("[name='" + prefix + "type']");
    if (kind) kind.dispatchEvent(new Event("change", {bubbles: true}));
    say("Giving the order…", false);
    form.requestSubmit();
  }

  function say(text, refused) {
    var line = document.getElementById("map-status");
    line.textContent = text;
    line.classList.toggle("refused", refused);
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  document.addEventListener("DOMContentLoaded", setup);
})();
