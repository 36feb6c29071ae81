import pytest

from tests.helpers.browser import chromium


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the studio's tests; each test opens its own page."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    yield context.new_page()
    context.close()
