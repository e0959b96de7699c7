/**
 * The academy's reference content: courses, lessons (markdown) and quizzes. A fresh install seeds exactly
 * this, so every embedded default teaches the same course material (CONTRACT.md, academy-mcp).
 */

export interface CourseSeed {
  id: string;
  title: string;
  description: string;
  level: 'inicial' | 'intermedio' | 'avanzado';
  hours: number;
  tags: string[];
  publishedAt: string;
  lessons: LessonSeed[];
}

export interface LessonSeed {
  id: string;
  title: string;
  minutes: number;
  markdown: string;
}

export interface QuizSeed {
  id: string;
  lesson: string;
  title: string;
  passRatio: number;
  questions: Array<{
    text: string;
    options: string[];
    /** Index into `options`. */
    correct: number;
    explanation: string;
  }>;
}

export const COURSES: readonly CourseSeed[] = [
  {
    id: 'mcp',
    title: 'Model Context Protocol desde cero',
    description:
      'Cómo conectar agentes con sistemas reales usando MCP: el problema N×M, el ciclo de vida de una ' +
      'sesión, herramientas, recursos y prompts, y las dos capas de errores.',
    level: 'intermedio',
    hours: 12,
    tags: ['mcp', 'agentes', 'json-rpc', 'integracion'],
    publishedAt: '2026-01-12T09:00:00Z',
    lessons: [
      {
        id: 'mcp-01-nxm',
        title: 'El problema N×M y cómo MCP lo convierte en N+M',
        minutes: 20,
        markdown: `# El problema N×M y cómo MCP lo convierte en N+M

Imagina que CO.DE Academy tiene **N = 4 clientes agénticos** (dos copilotos, una consola de operaciones
y un cliente de escritorio) y **M = 6 sistemas** (gemelo satelital, gemelo del rover, estaciones
terrenas, hub de eventos, laboratorios y academia).

## Sin un protocolo común: N×M

Cada cliente necesita su propia integración con cada sistema: autenticación, formatos, errores y
reintentos escritos una y otra vez. Son **N × M = 4 × 6 = 24 integraciones**, y cada sistema nuevo
obliga a tocar todos los clientes.

## Con MCP: N+M

MCP define un único contrato entre clientes y servidores:

- cada **sistema** expone **un servidor MCP** (M servidores);
- cada **cliente** implementa **un cliente MCP** (N clientes).

En total **N + M = 4 + 6 = 10 piezas**. Un sistema nuevo es un servidor más, y todos los clientes lo
pueden usar sin cambios.

## Qué estandariza MCP

1. El **transporte** (stdio o Streamable HTTP) y el formato JSON-RPC 2.0.
2. El **ciclo de vida**: \`initialize\` → \`notifications/initialized\` → operación.
3. Las **primitivas**: herramientas (acciones), recursos (datos) y prompts (plantillas).
4. Los **errores** en dos capas: errores de protocolo (JSON-RPC) y errores de dominio (resultados con
   \`isError: true\`).

## Para recordar

> MCP no elimina la integración: la hace **una vez por lado**.
`,
      },
      {
        id: 'mcp-02-ciclo-de-vida',
        title: 'Ciclo de vida y negociación de versión',
        minutes: 25,
        markdown: `# Ciclo de vida y negociación de versión

Una sesión MCP empieza siempre igual:

1. El cliente envía \`initialize\` con la versión del protocolo que prefiere (p. ej. \`2025-11-25\`).
2. El servidor responde con la versión que usará: la misma si la soporta o la más reciente que conoce.
3. El cliente envía la notificación \`notifications/initialized\`.

Antes de eso, cualquier petición que no sea \`initialize\` o \`ping\` recibe el error **-32000
"Server not initialized"** y no se ejecuta nada. Un segundo \`initialize\` en la misma sesión también es
un error.

## Notificaciones

Un mensaje con \`method\` y sin \`id\` es una notificación: **nunca recibe respuesta**, ni siquiera si sus
parámetros están mal. Toda petición con un \`id\` válido recibe exactamente una respuesta.
`,
      },
      {
        id: 'mcp-03-herramientas',
        title: 'Herramientas: esquemas, anotaciones y resultados',
        minutes: 30,
        markdown: `# Herramientas: esquemas, anotaciones y resultados

Una herramienta declara:

- un **nombre** y un **título**;
- una **descripción** que dice *cuándo* usarla;
- un **inputSchema** (JSON Schema) tan estricto como permita el dominio: tipos, mínimos y máximos;
- **anotaciones**: \`readOnlyHint\`, \`destructiveHint\`, \`idempotentHint\`, \`openWorldHint\`;
- si devuelve datos, un **outputSchema**, y el resultado lleva \`structuredContent\` además de un texto
  legible.

## Ejemplo

\`proximos_pases\` acepta \`horas\` entre 1 y 72. Un esquema estrecho evita peticiones absurdas antes
de que lleguen al sistema.
`,
      },
      {
        id: 'mcp-04-errores',
        title: 'Las dos capas de errores',
        minutes: 25,
        markdown: `# Las dos capas de errores

| capa | cuándo | cómo llega |
|---|---|---|
| protocolo | línea ilegible (-32700), no es una petición (-32600), método desconocido (-32601), herramienta desconocida (-32602) | error JSON-RPC |
| dominio | estación en mantenimiento, satélite desconocido, sistema caído | resultado con \`isError: true\` |

## Argumentos que violan el inputSchema

Hasta la versión **2025-06-18** son un error de protocolo **-32602 Invalid params**. Desde la
**2025-11-25** (SEP-1303) son un **resultado con \`isError: true\`** que nombra el argumento, el límite
y el valor recibido, para que el modelo pueda corregirse.
`,
      },
    ],
  },
  {
    id: 'orbitas',
    title: 'Órbitas y pases de satélites',
    description:
      'Elementos orbitales, TLE y el propagador SGP4; cómo se calcula cuándo un satélite es visible desde ' +
      'una estación terrena.',
    level: 'inicial',
    hours: 8,
    tags: ['satelites', 'sgp4', 'tle', 'orbitas'],
    publishedAt: '2026-02-02T09:00:00Z',
    lessons: [
      {
        id: 'orb-01-kepler',
        title: 'Elementos keplerianos',
        minutes: 20,
        markdown: `# Elementos keplerianos

Seis números describen una órbita: semieje mayor, excentricidad, inclinación, longitud del nodo
ascendente, argumento del perigeo y anomalía media. Con ellos se clasifica el régimen orbital: **LEO**
(por debajo de ~2000 km), **MEO**, **GEO** (período de un día sidéreo) y **HEO** (muy excéntricas).
`,
      },
      {
        id: 'orb-02-tle-sgp4',
        title: 'TLE y el propagador SGP4',
        minutes: 30,
        markdown: `# TLE y el propagador SGP4

Un **TLE** (two-line element set) publica los elementos medios de un satélite en una época concreta.
**SGP4** los propaga en el tiempo teniendo en cuenta el achatamiento terrestre y el rozamiento
atmosférico. La precisión cae con la distancia a la época: un TLE de hace semanas ya no sirve para
apuntar una antena.
`,
      },
      {
        id: 'orb-03-pases',
        title: 'Pases sobre una estación: AOS, TCA y LOS',
        minutes: 25,
        markdown: `# Pases sobre una estación: AOS, TCA y LOS

Un pase empieza en el **AOS** (el satélite supera la máscara de elevación), alcanza la elevación
máxima en el **TCA** y termina en el **LOS**. La máscara depende de la estación: 10° en
\`orbiteye-mx\`, 5° en \`orbiteye-es\`.
`,
      },
    ],
  },
  {
    id: 'estaciones-terrenas',
    title: 'Operación de estaciones terrenas',
    description: 'Antenas, bandas, salud de la estación y cómo se agenda un contacto con un satélite.',
    level: 'intermedio',
    hours: 6,
    tags: ['estaciones', 'antenas', 'operaciones'],
    publishedAt: '2026-03-09T09:00:00Z',
    lessons: [
      {
        id: 'gs-01-enlace',
        title: 'Bandas y presupuesto de enlace',
        minutes: 25,
        markdown: `# Bandas y presupuesto de enlace

Las estaciones OrbitEye trabajan en **banda S** (telemetría y telecomando) y **banda X** (descarga de
datos). El presupuesto de enlace suma ganancias y resta pérdidas; el ruido del LNA limita lo que se
puede recibir.
`,
      },
      {
        id: 'gs-02-agenda',
        title: 'Agendar contactos y mantenimiento',
        minutes: 20,
        markdown: `# Agendar contactos y mantenimiento

Un contacto reserva una antena entre el AOS y el LOS de un pase. No se puede reservar en una estación en
mantenimiento (como \`orbiteye-cl\`) ni solapar otro contacto en la misma antena.
`,
      },
    ],
  },
  {
    id: 'sql-analitica',
    title: 'SQL para analítica educativa',
    description: 'Consultas SELECT, uniones, agregados y CTE sobre los datos de la propia academia.',
    level: 'inicial',
    hours: 5,
    tags: ['sql', 'analitica', 'datos'],
    publishedAt: '2026-04-06T09:00:00Z',
    lessons: [
      {
        id: 'sql-01-select',
        title: 'SELECT, WHERE y JOIN',
        minutes: 25,
        markdown: `# SELECT, WHERE y JOIN

\`\`\`sql
SELECT e.nombre, c.titulo
FROM matriculas m
JOIN estudiantes e ON e.id = m.estudiante_id
JOIN cursos c ON c.id = m.curso_id
WHERE c.id = ?;
\`\`\`

Los parámetros \`?\` se enlazan aparte: nunca concatenes texto del usuario dentro de una consulta.
`,
      },
      {
        id: 'sql-02-agregados',
        title: 'Agregados y CTE',
        minutes: 30,
        markdown: `# Agregados y CTE

\`\`\`sql
WITH completadas AS (
  SELECT estudiante_id, count(*) AS n FROM avances GROUP BY estudiante_id
)
SELECT e.nombre, coalesce(c.n, 0) AS lecciones
FROM estudiantes e LEFT JOIN completadas c ON c.estudiante_id = e.id
ORDER BY lecciones DESC;
\`\`\`
`,
      },
    ],
  },
];

export const QUIZZES: readonly QuizSeed[] = [
  {
    id: 'quiz-mcp-01',
    lesson: 'mcp-01-nxm',
    title: 'Cuestionario: N×M y N+M',
    passRatio: 0.5,
    questions: [
      {
        text: 'Con 4 clientes y 6 sistemas, ¿cuántas integraciones hacen falta sin un protocolo común?',
        options: ['10', '24', '6', '4'],
        correct: 1,
        explanation: 'Sin protocolo común cada cliente integra cada sistema: N × M = 4 × 6 = 24.',
      },
      {
        text: 'Y con MCP, ¿cuántas piezas hay que construir?',
        options: ['24', '6', '10', '1'],
        correct: 2,
        explanation: 'Un servidor por sistema y un cliente por aplicación: N + M = 4 + 6 = 10.',
      },
    ],
  },
  {
    id: 'quiz-mcp-04',
    lesson: 'mcp-04-errores',
    title: 'Cuestionario: las dos capas de errores',
    passRatio: 0.5,
    questions: [
      {
        text: 'El cliente envía `horas: 200` pero el esquema dice máximo 72: ¿qué debe responder el servidor?',
        options: [
          'Ejecutar la herramienta con horas = 72 sin avisar.',
          'Con 2025-06-18 o anterior, un error JSON-RPC -32602; desde 2025-11-25, un resultado de la ' +
            'herramienta con isError: true que nombra el argumento, el límite y el valor.',
          'Siempre un error JSON-RPC -32603 (error interno).',
          'Ignorar la petición y no responder.',
        ],
        correct: 1,
        explanation:
          'Un argumento que viola el inputSchema es -32602 Invalid params hasta 2025-06-18; desde ' +
          "2025-11-25 (SEP-1303) es un resultado con isError: true (\"'horas' debe ser ≤ 72; recibido: " +
          '200") para que el modelo pueda corregirse. Nunca se recorta en silencio.',
      },
      {
        text: 'La estación pedida está en mantenimiento: ¿en qué capa llega ese error?',
        options: [
          'Como error de protocolo JSON-RPC -32602.',
          'Como resultado de la herramienta con isError: true (error de dominio).',
          'Como error -32601 (método desconocido).',
        ],
        correct: 1,
        explanation:
          'Una estación en mantenimiento es un error de dominio: la petición era válida y la herramienta ' +
          'responde con isError: true explicando el motivo.',
      },
    ],
  },
  {
    id: 'quiz-orb-01',
    lesson: 'orb-02-tle-sgp4',
    title: 'Cuestionario: TLE y SGP4',
    passRatio: 0.5,
    questions: [
      {
        text: '¿Qué contiene un TLE?',
        options: [
          'La posición exacta del satélite para todo el año.',
          'Elementos orbitales medios en una época concreta.',
          'La agenda de contactos del satélite.',
        ],
        correct: 1,
        explanation: 'Un TLE publica elementos medios en su época; SGP4 los propaga en el tiempo.',
      },
      {
        text: '¿Qué le ocurre a la precisión de SGP4 al alejarse de la época del TLE?',
        options: ['Mejora.', 'No cambia.', 'Empeora.'],
        correct: 2,
        explanation: 'El error crece con la distancia a la época: hay que usar TLE recientes.',
      },
    ],
  },
  {
    id: 'quiz-sql-01',
    lesson: 'sql-01-select',
    title: 'Cuestionario: consultas con parámetros',
    passRatio: 1,
    questions: [
      {
        text: '¿Cómo se incluye un valor que escribe el usuario en una consulta?',
        options: [
          'Concatenándolo dentro del texto SQL.',
          'Con un parámetro `?` enlazado aparte.',
          'Entre comillas dobles.',
        ],
        correct: 1,
        explanation: 'Los parámetros enlazados evitan la inyección de SQL.',
      },
    ],
  },
];

/** Seeded students: ids are the slug of the name, so a model can guess them from a conversation. */
export const STUDENTS: ReadonlyArray<{ id: string; name: string; country: string; cohort: string }> = [
  { id: 'ana-garcia', name: 'Ana García', country: 'MX', cohort: '2026-A' },
  { id: 'bruno-diaz', name: 'Bruno Díaz', country: 'CL', cohort: '2026-A' },
  { id: 'carla-mendez', name: 'Carla Méndez', country: 'ES', cohort: '2026-A' },
  { id: 'diego-rojas', name: 'Diego Rojas', country: 'CL', cohort: '2026-A' },
  { id: 'elena-soto', name: 'Elena Soto', country: 'AR', cohort: '2026-A' },
  { id: 'fernando-ruiz', name: 'Fernando Ruiz', country: 'ES', cohort: '2026-A' },
  { id: 'gabriela-luna', name: 'Gabriela Luna', country: 'MX', cohort: '2026-A' },
  { id: 'hector-vidal', name: 'Héctor Vidal', country: 'CO', cohort: '2026-A' },
  { id: 'irene-castro', name: 'Irene Castro', country: 'ES', cohort: '2026-A' },
  { id: 'javier-ortega', name: 'Javier Ortega', country: 'PE', cohort: '2026-A' },
  { id: 'karen-molina', name: 'Karen Molina', country: 'MX', cohort: '2026-B' },
  { id: 'luis-herrera', name: 'Luis Herrera', country: 'CO', cohort: '2026-B' },
  { id: 'marta-pena', name: 'Marta Peña', country: 'ES', cohort: '2026-B' },
  { id: 'nicolas-vega', name: 'Nicolás Vega', country: 'AR', cohort: '2026-B' },
  { id: 'olga-ramos', name: 'Olga Ramos', country: 'UY', cohort: '2026-B' },
  { id: 'pablo-navarro', name: 'Pablo Navarro', country: 'ES', cohort: '2026-B' },
  { id: 'quique-santos', name: 'Quique Santos', country: 'MX', cohort: '2026-B' },
  { id: 'rosa-jimenez', name: 'Rosa Jiménez', country: 'CL', cohort: '2026-B' },
  { id: 'sergio-flores', name: 'Sergio Flores', country: 'PE', cohort: '2026-B' },
  { id: 'tania-cruz', name: 'Tania Cruz', country: 'MX', cohort: '2026-B' },
];
