// Entry: /p/:token is a participant's flow; everything else is the researcher app.
import { render } from "preact";
import { ParticipantApp } from "./participant/ParticipantApp.tsx";
import { ResearcherApp } from "./researcher/ResearcherApp.tsx";
import "./styles.css";

const root = document.getElementById("app")!;
const m = /^\/p\/([^/]+)\/?$/.exec(location.pathname);
if (m !== null) render(<ParticipantApp token={decodeURIComponent(m[1]!)} />, root);
else render(<ResearcherApp />, root);
