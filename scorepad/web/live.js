// What every live board's page shares (page_html writes it into each page's <script>).
const $ = (id) => document.getElementById(id);

function signed(n) { return n > 0 ? "+" + n : String(n); }
function cls(n) { return n > 0 ? "up" : n < 0 ? "down" : ""; }
function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

// The page's language: the API words its text (a hand's description, ...) in it (?lang=).
const LANG = "?lang=" + encodeURIComponent(document.documentElement.lang || "en");

// The board's state now (GET /api/state), then every change (GET /events), each given to
// render(state, event) (event: null for the first); #live says whether the stream is up.
function live(render) {
  fetch("/api/state" + LANG).then((r) => r.json()).then((state) => render(state, null)).catch(() => {});
  const source = new EventSource("/events" + LANG);
  source.addEventListener("state", (e) => {
    $("live").className = "on"; $("live").textContent = "⟦live⟧";
    const event = JSON.parse(e.data);
    render(event.state, event);
  });
  source.onerror = () => { $("live").className = "off"; $("live").textContent = "⟦reconnecting⟧"; };
}
