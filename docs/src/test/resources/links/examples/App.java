class App {
    // the line a link points at
}
