/** The ferry command line. */
module dev.ferry.cli {
  requires dev.ferry.mime;
  requires info.picocli;

  opens dev.ferry.cli to info.picocli;
}
