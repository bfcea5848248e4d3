import { LocationProvider, Route, Router } from "preact-iso";
import { useApi } from "./api.js";
import { DataAge, StaleNotice } from "./components/freshness.js";
import { DatasetContext } from "./dataset.js";
import { formatCount } from "./format.js";
import { CataloguePage } from "./pages/catalogue.js";
import { ChangesPage } from "./pages/changes.js";
import { ComparePage } from "./pages/compare.js";
import { ConfidencePage } from "./pages/confidence.js";
import { CostPage } from "./pages/cost.js";
import { ModelPage } from "./pages/model.js";
import { NotFoundPage } from "./pages/not-found.js";
import { SourcesPage } from "./pages/sources.js";
import type { DatasetSummary } from "./types.js";

/** Paths the page's router owns; other same-origin links (API, docs, RSS) load normally. */
const SCOPE = /^\/(?:$|\?|m\/|cost|compare|changes|sources|confidence)/;

/** The main navigation: the page's sections, then the API's documentation. */
const NAVIGATION = [
  ["/", "Catalogue"],
  ["/cost", "Cost"],
  ["/compare", "Compare"],
  ["/changes", "Changes"],
  ["/sources", "Sources"],
  ["/docs", "API"],
] as const;

/**
 * After an in-page navigation (the router scrolls to the top), the focus goes to the new page's
 * heading, so a screen reader announces it (T125). preact-iso calls it on a change of path, never
 * on the first load, which keeps the browser's focus.
 */
function onRouteChange() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>("main h1")?.focus());
}

/**
 * The shell (issue 18): skip link, banner with the main navigation, the routed page in `main`,
 * and a footer naming the dataset version every number on the page comes from.
 */
export function App() {
  const meta = useApi<DatasetSummary>("/meta");
  const dataset = meta.state === "ok" ? meta.data.data : null;
  return (
    <LocationProvider scope={SCOPE}>
      <DatasetContext.Provider value={dataset}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="banner">
          <a class="brand" href="/">
            Tariff
          </a>
          <nav aria-label="Main">
            <ul>
              {NAVIGATION.map(([href, name]) => (
                <li key={href}>
                  <a href={href}>{name}</a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1}>
          <StaleNotice />
          <Router onRouteChange={onRouteChange}>
            <Route path="/" component={CataloguePage} />
            <Route path="/m/:provider/:model" component={ModelPage} />
            <Route path="/cost" component={CostPage} />
            <Route path="/confidence" component={ConfidencePage} />
            <Route path="/compare" component={ComparePage} />
            <Route path="/changes" component={ChangesPage} />
            <Route path="/sources" component={SourcesPage} />
            <Route default component={NotFoundPage} />
          </Router>
        </main>
        <footer class="footer">
          {dataset ? (
            <p>
              <DataAge /> · dataset <time dateTime={dataset.datasetVersion}>{dataset.datasetVersion}</time> ·{" "}
              {formatCount(dataset.models)} models · {formatCount(dataset.providers)} makers ·{" "}
              {formatCount(dataset.prices)} prices · every number here comes from the public{" "}
              <a href="/api/v1/meta">API v1</a> · <a href="/confidence">Confidence levels</a>
            </p>
          ) : (
            <p>
              Every number here comes from the public <a href="/api/v1/meta">API v1</a> ·{" "}
              <a href="/confidence">Confidence levels</a>
            </p>
          )}
        </footer>
      </DatasetContext.Provider>
    </LocationProvider>
  );
}
