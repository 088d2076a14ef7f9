"""An OpenAI-compatible privacy proxy: requests protected, replies restored (`stealthflow proxy`).

The server is `stealthflow.proxy.app.create_proxy_app`; this package stays import-light because
the settings (`stealthflow.config`) load its `ProxyConfig`.
"""

from stealthflow.proxy.config import ProxyConfig

__all__ = ["ProxyConfig"]
