"""The live page's weight and first paint on a phone-sized viewport (390 × 844), in headless Chromium.

    python bench/live_page.py [--runs 5]

A table of three on the real runtime with the live server on 127.0.0.1 (no Discord); each
run opens a fresh one-time link as a spectator in a new browser context (nothing cached),
and prints what the page downloaded (every response's body, as served: uncompressed) and,
from the page's own clock, its first contentful paint and the moment the table was drawn
(the link traded for a session, the socket open, the first state in). Medians of the runs.
Needs the browser extra and Debian's chromium (as ``make test-browser``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.async_api import async_playwright  # noqa: E402

from bench.live_bench import PLAYERS, G, new_table, server  # noqa: E402
from bot.live.links import Pass  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FIRST_PAINT = (
    "performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint')?.startTime"
)


async def measure(runs: int) -> None:
    weights: list[int] = []
    paints: list[float] = []
    drawn: list[float] = []
    files: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        runtime, ledger, live, db = await server(tmp)
        table = await new_table(runtime, ledger, 100, PLAYERS)
        async with async_playwright() as pw:
            args = ["--no-sandbox", "--disable-gpu"]
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=args)
            for run in range(runs):
                context = await browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
                page = await context.new_page()
                sizes: list[tuple[str, int]] = []

                async def seen(response: object, sizes: list[tuple[str, int]] = sizes) -> None:
                    url = response.url  # type: ignore[attr-defined]
                    if url.startswith("http"):
                        sizes.append((url, len(await response.body())))  # type: ignore[attr-defined]

                page.on("response", seen)
                await page.goto(live.link(Pass(900 + run, G, table.id, "en")))
                await page.wait_for_selector("#table .seat")
                drawn.append(await page.evaluate("performance.now()"))
                paint = await page.evaluate(FIRST_PAINT)
                paints.append(float(paint or "nan"))
                await asyncio.sleep(0.2)
                weights.append(sum(n for _, n in sizes))
                files = {url.split("/", 3)[-1]: n for url, n in sizes}
                await context.close()
            await browser.close()
        await live.stop()
        await db.close()
    print(f"live page on a 390 x 844 viewport, {runs} cold loads (medians):")
    print(f"  page weight {statistics.median(weights) / 1024:.1f} KB over {len(files)} files (uncompressed)")
    for name, n in sorted(files.items(), key=lambda kv: -kv[1]):
        print(f"    {n / 1024:6.1f} KB  {name}")
    print(f"  first contentful paint {statistics.median(paints):.0f} ms", end="; ")
    print(f"table drawn {statistics.median(drawn):.0f} ms")


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--runs", type=int, default=5)
    asyncio.run(measure(parser.parse_args().runs))


if __name__ == "__main__":
    main()
