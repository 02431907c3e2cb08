# tools/flash --dry: openocd reads the board's configuration, then this
# file stands in for the probe, so that its "program" command runs to the
# end and says what it would write ("dry: flash write_image erase FILE
# [ADDRESS]"), with no probe attached.
proc init {} { echo "dry: init" }
proc reset {args} { echo "dry: reset [join $args]" }
proc poll {args} {}
proc flash {args} {
    set file [lindex $args 2]
    if {[lindex $args 0] ne "write_image" || ![file exists $file]} {
        error "dry: flash [join $args]: not a write_image of a file"
    }
    echo "dry: flash [join $args]"
}
proc verify_image {args} { echo "dry: verify_image [join $args]" }
return ""
