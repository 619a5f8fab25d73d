// The seafaring board's places, tapped (issue 13, issue 20 §4): the seat's desk, and the
// moderator's dashboard acting for a seat. A tap asks first ("Build a road here?": the bar of a
// road and the boat of a ship sit close together on a coast, and a finger is wide); yes puts the
// target's action into the board's form (#board-form, its [data-board-action] field) and
// submits it — htmx posts it. A ship to move is tapped first, then one of its destinations,
// which are shown only once their ship is chosen. A form with a [data-board-reason] field (the
// moderator's: G4, the reason is required) sends nothing while it is empty and says so. Without
// JavaScript the list under the board does the same.
document.documentElement.classList.add("js");
(function () {
  function choose(ship) {
    document.querySelectorAll("svg.seafarers-board g.movable").forEach(function (g) {
      g.classList.toggle("selected", g.dataset.place === ship);
    });
    document.querySelectorAll("svg.seafarers-board a.target[data-from]").forEach(function (a) {
      a.classList.toggle("shown", a.dataset.from === ship);
    });
  }
  function field(form) { return form.querySelector("[data-board-action]"); }
  // What is missing before the action may go, in words; "" when nothing is.
  function missing(form) {
    var reason = form.querySelector("[data-board-reason]");
    if (reason && !reason.value.trim()) {
      return "Say why you act for " + (form.dataset.actFor || "the player") +
        " first, in the reason box: it goes to the audit log. Nothing was sent.";
    }
    return "";
  }
  function send(target) {
    var form = document.getElementById("board-form");
    if (!form) return true;
    var why = missing(form);
    if (why) {
      var said = document.getElementById("board-confirm-why");
      if (said) { said.textContent = why; said.hidden = false; }
      form.querySelector("[data-board-reason]").focus({preventScroll: true});
      return false;
    }
    var action = field(form);
    action.value = target.dataset.action;
    if (action.value !== target.dataset.action) {
      var option = document.createElement("option");
      option.value = target.dataset.action;
      action.appendChild(option);
      action.value = target.dataset.action;
    }
    form.requestSubmit();
    return true;
  }
  var chosen = null;
  function question(target) {
    var form = document.getElementById("board-form");
    var asked = target.dataset.confirm;
    if (form && form.dataset.actFor) asked = asked.replace(/\?$/, " for " + form.dataset.actFor + "?");
    return asked;
  }
  function ask(target) {
    var box = document.getElementById("board-confirm");
    if (!box) { send(target); return; }
    if (chosen) chosen.classList.remove("chosen");
    chosen = target;
    target.classList.add("chosen");
    document.getElementById("board-confirm-question").textContent = question(target);
    document.getElementById("board-confirm-place").textContent = target.dataset.where;
    var said = document.getElementById("board-confirm-why");
    if (said) said.hidden = true;
    box.hidden = false;
    document.getElementById("board-confirm-yes").focus({preventScroll: true});
  }
  function unask() {
    var box = document.getElementById("board-confirm");
    if (box) box.hidden = true;
    if (chosen) chosen.classList.remove("chosen");
    chosen = null;
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("#board-confirm-yes")) { if (!chosen || send(chosen)) unask(); return; }
    if (event.target.closest("#board-confirm-no")) { unask(); return; }
    var target = event.target.closest("svg.seafarers-board a.target");
    if (target) { event.preventDefault(); ask(target); return; }
    var ship = event.target.closest("svg.seafarers-board g.movable");
    if (ship) { choose(ship.classList.contains("selected") ? null : ship.dataset.place); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && chosen) { unask(); return; }
    var ship = event.target.closest && event.target.closest("svg.seafarers-board g.movable");
    if (ship && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); ship.dispatchEvent(new MouseEvent("click", {bubbles: true})); }
  });
  function ready() {
    document.querySelectorAll("svg.seafarers-board g.movable").forEach(function (g) {
      g.setAttribute("tabindex", "0"); g.setAttribute("role", "button");
    });
  }
  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:load", ready);
})();
