from scorepad.cli import main

main(prog_name="scorepad")
