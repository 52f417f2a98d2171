"""`agraph render --format html`: the page itself (self-contained, same bytes, safe), and the page
driven in a real browser: headless Chromium from Debian's packages through chromedriver and
selenium (.ci/run installs them). The browser tests are skipped, saying why, only when no
Chromium or chromedriver is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGRAPH = [sys.executable, "-m", "autograd_cli"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None or shutil.which("dot") is None,
    reason="no browser: install Debian's chromium and chromium-driver (and graphviz)")


def render_html(program: Path, output: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*AGRAPH, "render", str(program), "--format", "html", "-o",
                           str(output), *extra], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("html") / "graph.html"
    done = render_html(ROOT / "samples" / "computation_graph.expr", output)
    assert done.returncode == 0, done.stderr
    return output


def embedded_data(text: str) -> list[dict[str, Any]]:
    match = re.search(r'<script id="agraph-data" type="application/json">(.*?)</script>', text,
                      re.S)
    assert match
    return json.loads(match.group(1))


@needs_dot
def test_page_is_self_contained_and_byte_stable(page: Path, tmp_path: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)  # nothing fetched
    assert "<link" not in text and "<script src" not in text
    again = tmp_path / "again.html"
    assert render_html(ROOT / "samples" / "computation_graph.expr", again).returncode == 0
    assert again.read_bytes() == page.read_bytes()


@needs_dot
def test_page_holds_both_views_with_their_timelines(page: Path) -> None:
    views = embedded_data(page.read_text(encoding="utf-8"))
    assert [v["view"] for v in views] == ["forward", "backward"]
    forward = views[0]
    phases = [event["phase"] for event in forward["timeline"]]
    assert phases[0] == "forward" and phases[-1] == "backward"
    assert phases == sorted(phases, key=["forward", "backward"].index)  # forward, then backward
    names = {n["id"]: n["attrs"].get("name") for n in forward["nodes"]}
    grads = [(names[e["node"]], e["grad"]) for e in forward["timeline"]
             if e["phase"] == "backward" and names.get(e["node"]) in ("w", "x")]
    assert ("w", "5.") in grads and ("x", "2.") in grads  # y = (w + x) * (w + 1) at w=1, x=2
    assert any("backward()" in line for line in forward["source"].values())


@needs_dot
def test_program_text_cannot_break_out_of_the_page(tmp_path: Path) -> None:
    program = tmp_path / "hostile.expr"
    program.write_text('import torch\nx = torch.ones(1, requires_grad=True)\n'
                       'y = x * 2  # </script><script>alert(1)</script>\n'
                       'y.backward()\n', encoding="utf-8")
    output = tmp_path / "hostile.html"
    done = render_html(program, output)
    assert done.returncode == 0, done.stderr
    text = output.read_text(encoding="utf-8")
    assert text.count("<script") == 2 and "alert(1)</script>" not in text
    assert any("alert(1)" in line for line in embedded_data(text)[0]["source"].values())


# --- in a browser ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no browser: install Debian's chromium and chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="agraph-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", f"--user-data-dir={profile}",
                 "--window-size=1280,800"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def node_element(driver: Any, name: str) -> Any:
    """The SVG group of the node whose first label line is `name`."""
    from selenium.webdriver.common.by import By

    for group in driver.find_elements(By.CSS_SELECTOR, ".figure:not([hidden]) g.node[data-node]"):
        texts = group.find_elements(By.TAG_NAME, "text")
        if texts and texts[0].text == name:
            return group
    raise AssertionError(f"no node {name!r} drawn")


@needs_browser
def test_browser_click_shows_details(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(page.as_uri())
    node_element(browser, "w").click()
    panel = browser.find_element(By.ID, "details").text
    assert panel.startswith("w")
    assert "leaf (requires grad)" in panel and "float64" in panel
    assert "grad\n5." in panel or "grad 5." in panel
    assert "source, line" in panel and "requires_grad=True" in panel


@needs_browser
def test_browser_timeline_replays_forward_then_backward(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(page.as_uri())
    status = browser.find_element(By.ID, "status")
    assert "(end)" in status.text
    browser.find_element(By.ID, "first").click()
    assert status.text.startswith("0/")
    future = browser.find_elements(By.CSS_SELECTOR, ".figure:not([hidden]) g.node.future")
    assert future  # before the program ran, its nodes are not there yet
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert status.text.startswith("1/") and "forward, line" in status.text
    total = int(status.text.split("/")[1].split(":")[0].split(" ")[0])
    slider = browser.find_element(By.ID, "slider")
    assert int(slider.get_attribute("max")) == total
    seen = []
    for _ in range(total - 1):
        browser.find_element(By.ID, "next").click()
        seen.append(status.text)
    assert any("backward pass 1" in line for line in seen)
    w_seen = [line for line in seen if ", w: grad = " in line]
    assert w_seen and w_seen[-1].endswith("grad = 5.")
    node_element(browser, "w").click()
    assert "5." in browser.find_element(By.ID, "details").text


@needs_browser
def test_browser_search_hover_views_and_screenshot(browser: Any, page: Path,
                                                   tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.get(page.as_uri())
    search = browser.find_element(By.ID, "search")
    search.send_keys("y")
    assert browser.find_element(By.ID, "details").text.startswith("y")
    ActionChains(browser).move_to_element(node_element(browser, "a")).perform()
    related = browser.find_elements(By.CSS_SELECTOR, ".figure:not([hidden]) g.node.ancestor")
    names = {g.find_element(By.TAG_NAME, "text").get_attribute("textContent") for g in related}
    assert names >= {"w", "x"} and "y" not in names
    tabs = browser.find_elements(By.CSS_SELECTOR, ".tab")
    assert [t.text for t in tabs] == ["forward", "backward"]
    tabs[1].click()
    assert node_element(browser, "MulBackward0") is not None
    shot = tmp_path / "page.png"
    assert browser.save_screenshot(str(shot))
    assert not blank(shot.read_bytes())


def test_blank_tells_an_empty_picture(tmp_path: Path) -> None:
    width, height = 400, 30
    rows = b"".join(b"\x00" + b"\xff" * (3 * width) for _ in range(height))
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                             0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    assert blank(png)


def blank(png: bytes) -> bool:
    """A screenshot of (almost) one colour: nothing drawn. The PNG's pixel data, inflated
    (rows of filtered bytes): a page of one colour is nearly all one byte value."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    data, offset = b"", 8
    while offset < len(png):
        length = struct.unpack(">I", png[offset:offset + 4])[0]
        kind = png[offset + 4:offset + 8]
        if kind == b"IDAT":
            data += png[offset + 8:offset + 8 + length]
        offset += 12 + length
    pixels = zlib.decompress(data)
    most = Counter(pixels).most_common(1)[0][1]
    return most / len(pixels) > 0.995


@needs_browser
def test_browser_replays_a_folded_loop(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    program = tmp_path / "rnn.expr"
    program.write_text("import torch\nW = torch.ones(2, 2, requires_grad=True)\n"
                       "h = torch.zeros(2, 1)\nfor step in range(12):\n"
                       "    h = torch.tanh(torch.mm(W, h) + 1)\nh.sum().backward()\n",
                       encoding="utf-8")
    output = tmp_path / "rnn.html"
    assert render_html(program, output).returncode == 0
    browser.get(output.as_uri())
    block = node_element(browser, "h ×12")
    browser.find_element(By.ID, "first").click()
    assert "future" in (block.get_attribute("class") or "")
    browser.find_element(By.ID, "next").click()  # line 2: W
    browser.find_element(By.ID, "next").click()  # line 3: h
    browser.find_element(By.ID, "next").click()  # line 5, the first iteration makes the block
    assert "future" not in (block.get_attribute("class") or "")
    assert "forward, line 5" in browser.find_element(By.ID, "status").text
    block.click()
    assert "h ×12" in browser.find_element(By.ID, "details").text
