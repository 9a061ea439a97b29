"""The balance report (``issoku balance-report``): every measure of a store's matches, its findings with verdicts,
the Markdown, HTML, CSV and plots written from them, and the games that show each finding."""
