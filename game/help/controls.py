"""The Controls page and the keys of the "?" overlay, as the game behaves (``game/input.py``,
``game/controller.py`` and ``game/hand.py``, the panel in ``game/ui``), not as a web page would."""

from __future__ import annotations

from functools import cache

from engine import Variant

from .model import Key, Page, Section

# Every key the game reads, in the order the overlay lists them. pygame_keys names the constants
# game/input.py must read for each (tests check it); text: a character read from the key's text.
KEYS = (
    Key("← ↑ → ↓", "Move the cursor from dark square to dark square, as you see the board (the first press "
        "shows it); on the Rules and Controls, ↑ ↓ scroll and ← → go from section to section",
        ("K_LEFT", "K_RIGHT", "K_UP", "K_DOWN")),
    Key("Enter or Space", "Press the square under the cursor, or the button chosen with Tab",
        ("K_RETURN", "K_KP_ENTER", "K_SPACE")),
    Key("Esc", "Close the resign question; else take back a capture partly entered; else drop the selection; "
        "on the Rules and Controls, go back", ("K_ESCAPE",)),
    Key("Tab, Shift+Tab", "Go to the next (previous) button; after the last one, back to the board", ("K_TAB",)),
    Key("Ctrl+Z", "Undo move", ("K_z",)),
    Key("Page Up, Page Down", "Scroll the Rules and Controls a page up or down", ("K_PAGEUP", "K_PAGEDOWN")),
    Key("Home, End", "Go to the top or the end of the Rules and Controls", ("K_HOME", "K_END")),
    Key("Ctrl+C", "Copy the room's link while you wait for your friend", ("K_c",)),
    Key("Ctrl+V, Shift+Insert", "Paste into a text field (the link of “Join a friend”)", ("K_v", "K_INSERT")),
    Key("Backspace, Delete", "Edit a text field (←, →, Home and End move its caret)", ("K_BACKSPACE", "K_DELETE")),
    Key("Home, End", "In a game: show its first or last position (a review)", ("K_HOME", "K_END")),
    Key("Page Up, Page Down", "In a game: step back or forward through the moves (in a review, ← and → too)",
        ("K_PAGEUP", "K_PAGEDOWN")),
    Key("Ctrl+S", "Save the game as PDN in the games folder", ("K_s",)),
    Key("Ctrl+C, Ctrl+Shift+C", "In a game: copy its PDN; copy the position's FEN", ("K_c",)),
    Key("Ctrl+V", "Elsewhere: paste PDN or a FEN, to open that game or position", ("K_v",)),
    Key("Ctrl+O", "Open a game from a PDN file", ("K_o",)),
    Key("Ctrl+E", "Set up a position", ("K_e",)),
    Key("1 2 3 4, 0", "Setting up a position: Black man, Black king, White man, White king; 0, Delete or "
        "Backspace removes", ("K_1", "K_2", "K_3", "K_4", "K_0")),
    Key("F1", "Open the Rules", ("K_F1",)),
    Key("?", "Show these keys", (), text="?"),
)

CONTROL_SECTION_IDS = (
    "controls-start", "controls-select", "controls-captures", "controls-drag", "controls-keyboard",
    "controls-button-table", "controls-views", "controls-draw-offers", "controls-undo", "controls-friend",
    "controls-review", "controls-analysis", "controls-files", "controls-editor", "controls-settings",
)


def controls_page(variant: Variant) -> Page:
    """The Controls page; ``variant`` names the first player in its text."""
    return _controls(variant.first_player.label.capitalize(), variant.first_player.opponent.label.capitalize())


@cache
def _controls(first: str, second: str) -> Page:
    return Page("controls", "Controls", (
        Section("controls-start", "Starting a game", (
            "On the first screen, choose the rules (American Checkers or International Draughts), then how to "
            "play.",
            f"Easy, Medium and Hard play against the computer, and you move first ({first}). “Play second · "
            f"Medium” lets the computer open while you play {second}. “2 players on this device” is for two "
            "people taking turns at one screen.",
            "A game is saved after every move: it comes back when you start the game again, and “Back to the "
            "game in progress” returns to it from the first screen.",
        )),
        Section("controls-select", "Moving a piece", (
            "Press one of your pieces: it lifts, a gold ring appears on it, and green dots mark the squares "
            "it can move to. Press a green dot to move there.",
            "Pressing another of your pieces selects that one instead. Pressing the selected piece again, or "
            "pressing outside the board, drops the selection.",
            "If the selected piece has a capture that ends back on its own square, pressing the piece plays "
            "that capture; press outside the board to drop the selection instead.",
            "The last move is drawn as an orange line along its path, with a small red ring where each "
            "captured piece stood.",
        )),
        Section("controls-captures", "Captures and multiple jumps", (
            "When a capture is compulsory, a gold ring at the foot of each piece that can capture shows it, "
            "and the status line adds “You must capture”.",
            "For a multiple jump, press the squares to stop on, in order. As soon as only one way is left, "
            "the rest of the move plays by itself. A green ring marks where a capture ends: pressing it "
            "plays the move at once when only one way leads there.",
            "To take back a capture you have partly entered, press “Deselect” below the board, or Esc.",
        )),
        Section("controls-drag", "Drag and drop", (
            "You can also drag one of your pieces and drop it on a green dot, or on the green ring where a "
            "capture ends. Dropping it anywhere else puts it back.",
        )),
        Section("controls-keyboard", "Keyboard", (
            "The arrow keys move a cursor over the board's dark squares, and Enter or Space presses the square "
            "under it, just as a click would.",
            "Tab goes through the buttons (Shift+Tab goes back) and Enter or Space presses the one chosen. "
            "Esc takes back a capture partly entered or drops the selection. Ctrl+Z undoes a move.",
            "Home, PageUp, PageDown and End go through the moves of the game; Ctrl+S saves it, Ctrl+C copies "
            "it (Ctrl+Shift+C the position), Ctrl+V pastes a game or a position, Ctrl+O opens one, Ctrl+E "
            "sets up a position.",
            "F1 opens the Rules, and ? shows the keys at any time during a game.",
            "On the Rules and Controls pages, the wheel, the scrollbar, the arrow keys, Page Up, Page Down, Home "
            "and End scroll (← and → go from section to section), and Back or Esc returns to where you were.",
        )),
        Section("controls-button-table", "Button controls", (
            "The “Button controls” panel beside the board (below it in a narrow window) is a table laid "
            "out like the 3D board and turned the same way. Press a piece there, then the squares to stop "
            "on, as on the board.",
            "Under it, “Legal moves” lists every move you can make, such as c3-d4, or c3xe5 for a capture; "
            "press one to play it.",
            "The panel also shows the pieces left (men and kings), the moves left before an automatic draw, "
            "the last move, and all the moves of the game.",
        )),
        Section("controls-views", "Turning the board", (
            "Drag the board (away from your pieces) to turn the view, or drag with the right mouse button "
            "anywhere on it. The mouse wheel zooms in and out.",
            "The “Angled” and “Top-down” buttons at the top right of the board switch between the two "
            "views. “Flip board” turns the board round to the other side.",
            "When you play second against the computer, the board starts turned so that your pieces are "
            "near you.",
        )),
        Section("controls-draw-offers", "Offering a draw", (
            "To offer a draw, press “Offer a draw with your next move”, then make your move: the offer goes "
            "with it. Press the button again before moving to withdraw the offer. It can't be pressed while "
            "the rules don't allow you to offer.",
            "When your opponent offers a draw, “Accept draw” appears below the board and in the panel. Press "
            "it to agree, or just make a move to decline.",
            "Against the computer, it answers your offer on its turn, and it may offer a draw itself.",
        )),
        Section("controls-undo", "Undo, resign, new game", (
            "“Undo move” (or Ctrl+Z) takes back a move. Against the computer it takes back the computer's "
            "reply and your move together, so it is your turn again. A draw offer made with a move goes "
            "with it. A game that ended on the board can be undone; one that ended by resignation or an "
            "agreed draw can't.",
            "“Resign” asks first: press “Yes, resign” to concede, or “Keep playing” (or Esc).",
            "“Play again” starts a new game with the same rules and the same opponent. “Change mode” goes "
            "back to the first screen.",
        )),
        Section("controls-friend", "Playing a friend", (
            "“Play a friend (send a link)” opens a room with the rules chosen and shows its link: “Copy "
            "link” (or Ctrl+C) puts it on the clipboard to send. Your friend pastes it under “Join a "
            "friend” (Ctrl+V) and presses Join, or just opens the link.",
            "You play first; your friend plays second, with the board turned so that their pieces are near "
            "them.",
            "Everything works as against the computer except Undo. The panel shows both players' "
            "connection. A dropped connection comes back by itself (“Reconnecting…”); when your friend has "
            "been gone for 2 minutes, “Continue vs computer” plays on against the computer (Medium) from "
            "the same position.",
            "After the game, “Rematch (swap sides)” starts the next one once you both press it. If you close "
            "the game, the first screen offers “Return to the game with your friend” while the room lasts.",
        )),
        Section("controls-review", "Going through a game", (
            "Any game can be stepped through, whether it is going on, finished or opened from a file: the "
            "arrows under “Review” in the panel, Home, PageUp, PageDown and End, or a press on a move in the "
            "move list. The board shows that position, with the move that led to it drawn as an orange line.",
            "Against the computer, it waits while you look back. “Back to the game” (or Esc, or End) returns "
            "to the game as it stands.",
            "“Play from here” goes on from the position shown: against the computer (Easy, Medium or Hard, "
            "you take the side to move) or two players. The moves before it come along, so a position "
            "repeated earlier counts toward a draw by repetition.",
        )),
        Section("controls-analysis", "The computer's analysis", (
            "“Analyze” lets the computer study the position shown for as long as you like: the panel shows "
            "who is ahead and by how many men, how deep it has looked, and the moves it expects.",
            "A blue arrow on the board shows its best move, and a bar beside the board who is better. It "
            "follows the position as you step through the game; press “Analyze” again to stop it.",
            "In a game against the computer, “Hint” shows the move it would play in your place.",
            "“Analyze game” has the computer look at every move of the game, which takes a few seconds. "
            "Moves that lost a lot are marked ? (a mistake) and ?? (a blunder) in the move list, and a graph "
            "shows the score over the game: press it to go to that move.",
        )),
        Section("controls-files", "Saving and opening games", (
            "“Save game” keeps the game as a PDN file, the format checkers and draughts players trade games "
            "in, in the Checkers 3D folder of your documents, named from the date and the players; the "
            "game report's marks and scores go in with it. “Copy PDN” and “Copy FEN” put the game, or the "
            "position, on the clipboard.",
            "“Open a game…” lists the files you opened lately and those in that folder. Or drop a PDN file on "
            "the window, or paste a game or a FEN with Ctrl+V. A file of several games lists them (players, "
            "event, result) to choose from. A file that can't be read says why, and the game goes on.",
        )),
        Section("controls-editor", "Setting up a position", (
            "“Set up a position” opens the editor on the position shown. Choose a piece, then press the "
            "squares to put it there (press again to take it away); choose the side to move; clear the board "
            "or go back to the start position; copy or paste the position as FEN.",
            "The editor says why a position can't be played (a man on the row where it would be crowned, "
            "more pieces than a side starts with); then “Play from here” against the computer or two players.",
        )),
        Section("controls-settings", "Settings", (
            "Under Settings you can write moves with square names (c3-d4) or with the tournament numbers "
            "(11-15), show the numbers on the board's dark squares, set the animation speed, and turn the "
            "sound on or off.",
            "“Room server” is where your rooms are opened: empty for this game's own (friends on the same "
            "network reach it), or the address of a public one. On its screen, “Register checkers3d:// "
            "links” makes a click on a link open the game.",
        )),
    ), keys=KEYS)
