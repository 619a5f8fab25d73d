"""Turn reports (issue 4): a private report per faction and a public bulletin, built only from a
turn's stored scenario and result documents, rendered as Markdown, BBCode or HTML."""

from reports.bbcode import to_bbcode
from reports.build import Names, faction_report, public_bulletin
from reports.markdown import to_markdown
from reports.model import Battle, Ledger, Report, Round, Section, Side

__all__ = [
    "Battle",
    "Ledger",
    "Names",
    "Report",
    "Round",
    "Section",
    "Side",
    "faction_report",
    "public_bulletin",
    "to_bbcode",
    "to_markdown",
]
