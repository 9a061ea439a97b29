"""Playing and storing games: the one game loop, tournaments and their schedules, the policies a user names, the
study files, the checks before anything is played, the match records and the SQLite store that holds them."""
